// The message texts of sim/printable.h on fresh random bytes: printable and bounded whatever the input, never
// cut inside an escape or a UTF-8 character; and errors keep what follows a NUL.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "sim/errors.h"
#include "sim/printable.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

std::string random_bytes(TestRng& rng, int lo, int hi) {
  std::string text(static_cast<std::size_t>(rng.uniform_int(lo, hi)), '\0');
  for (char& c : text) c = static_cast<char>(rng.uniform_int(0, 255));
  return text;
}

bool has_control(const std::string& text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xe0) == 0x80)
      return true;
  }
  return false;
}

TEST(Printable, ExcerptIsPrintableBoundedAndCutAtABoundary) {
  TestRng rng;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::string text = random_bytes(rng, 0, trial % 10 == 0 ? 100000 : 200);
    const std::size_t shown = static_cast<std::size_t>(rng.uniform_int(4, 80));
    const std::string e = excerpt(text, shown);
    EXPECT_FALSE(has_control(e)) << rng.seed();
    const std::string whole = printable(text);
    if (whole.size() <= shown) {
      EXPECT_EQ(e, whole);
      continue;
    }
    const std::string tail = "... (" + std::to_string(text.size()) + " bytes)";
    ASSERT_GE(e.size(), tail.size());
    ASSERT_EQ(e.substr(e.size() - tail.size()), tail);
    const std::string kept = e.substr(0, e.size() - tail.size());
    EXPECT_LE(kept.size(), shown);
    // What is kept is the escaped form of a prefix of the text that ends before a character, not inside one
    // or inside its escape.
    const std::size_t most = std::min(text.size() - 1, shown);
    std::size_t prefix = 0;
    while (prefix <= most && printable(text.substr(0, prefix)) != kept) ++prefix;
    ASSERT_LE(prefix, most) << "not the escaped form of a prefix: " << kept;
    // (At 0 nothing is kept, so nothing is cut: a text may start with a stray continuation byte, which
    // excerpt groups with the bytes after it, as the check below does.)
    if (prefix > 0)
      EXPECT_NE(static_cast<unsigned char>(text[prefix]) & 0xc0, 0x80) << "cut inside a character";
    // And no sooner than needed: the next character, escaped, would not have fitted.
    std::size_t next = prefix + 1;
    while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xc0) == 0x80) ++next;
    EXPECT_GT(kept.size() + printable(text.substr(prefix, next - prefix)).size(), shown);
  }
}

TEST(Printable, ErrorsKeepWhatFollowsANulOnOneLine) {
  TestRng rng;
  const std::string before = random_bytes(rng, 0, 40),
                    after = "tail" + std::to_string(rng.uniform_int(0, 99999));
  const std::string message = before + '\0' + "\n" + after;
  for (const std::string& what :
       {std::string(UsageError(message).what()), std::string(RuntimeFailure(message).what())}) {
    EXPECT_NE(what.find("\\x00 " + after), std::string::npos) << what;
    EXPECT_FALSE(has_control(what)) << what;
  }
}

TEST(Printable, NumbersAreShortAndCountsAgree) {
  TestRng rng;
  for (int trial = 0; trial < 1000; ++trial) {
    const double value = (rng.uniform_int(0, 1) ? 1 : -1) * rng.uniform(1.0f, 9.9f) *
                         std::pow(10.0, rng.uniform_int(-300, 307));
    const std::string text = number_text(value);
    EXPECT_LE(text.size(), 13u) << text;  // -d.ddddde+ddd
    EXPECT_NEAR(std::stod(text) / value, 1.0, 1e-5) << text;
  }
  const long long n = rng.uniform_int(2, 1000000);
  EXPECT_EQ(counted(1, "thread"), "1 thread");
  EXPECT_EQ(counted(n, "core"), std::to_string(n) + " cores");
  EXPECT_EQ(counted(0, "row"), "0 rows");
}

}  // namespace
}  // namespace coalesce
