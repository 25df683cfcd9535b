// exact_text, the number in every "is X; expected ..." message, on fresh random values: it reads back as the
// value in its own type, and an integer the user typed comes back as its digits unless %g is shorter.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <random>
#include <string>

#include "sim/limits.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

double uniform_double(TestRng& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng.engine());
}

TEST(ExactText, ReadsBackAsTheValueInItsOwnType) {
  TestRng rng;
  for (int trial = 0; trial < 20000; ++trial) {
    const double d = std::ldexp(uniform_double(rng, -1.0, 1.0), rng.uniform_int(-1070, 1023));
    const std::string dt = exact_text(d);
    EXPECT_EQ(std::strtod(dt.c_str(), nullptr), d) << dt;
    const auto f = static_cast<float>(std::ldexp(uniform_double(rng, -1.0, 1.0), rng.uniform_int(-140, 127)));
    const std::string ft = exact_text(f);
    EXPECT_EQ(std::strtof(ft.c_str(), nullptr), f) << ft;
    EXPECT_EQ(ft.find("e+"), std::string::npos) << ft;  // the exponent unpadded, as in the ranges' words
  }
}

// 1e12 + 4950 was shown as 1.00000000495e12 while the message around it quoted the file's 1000000004950.
TEST(ExactText, IntegersAreTheirDigitsUnlessTheExponentFormIsShorter) {
  TestRng rng;
  for (int trial = 0; trial < 20000; ++trial) {
    const int zeros = rng.uniform_int(0, 12);
    const double v =
        std::trunc(uniform_double(rng, 1.0, 1e16) / std::pow(10.0, zeros)) * std::pow(10.0, zeros);
    const std::string digits = std::to_string(static_cast<long long>(v));
    const std::string text = exact_text(v);
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), v) << text;
    if (text.find('e') == std::string::npos)
      EXPECT_EQ(text, digits);
    else
      EXPECT_LT(text.size(), digits.size()) << text << " for " << digits;
  }
  EXPECT_EQ(exact_text(1e12), "1e12");
  EXPECT_EQ(exact_text(1e12 + 4950), "1000000004950");
  EXPECT_EQ(exact_text(0.001), "0.001");
}

}  // namespace
}  // namespace coalesce
