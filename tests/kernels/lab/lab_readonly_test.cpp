// The read-path kernels: the stencil under each load path, and the polynomial under each coefficient path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "kernels/lab/lab_kernels.h"
#include "tests/kernels/lab/lab_test_util.h"

namespace coalesce::lab {
namespace {

using testing::random_floats;
using testing::TestRng;

TEST(LabReadOnly, StencilMatchesTheHostUnderEveryLoadPath) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const std::vector<float> in = random_floats(rng, rng.uniform_int(5, 100000));
  const long n = static_cast<long>(in.size());
  for (ReadPath path : {ReadPath::Plain, ReadPath::Restrict, ReadPath::Ldg}) {
    const std::vector<float> out = run_stencil(path, in);
    ASSERT_EQ(out.size(), in.size());
    for (long i = 0; i < n; ++i) {
      double want = 0;
      for (long d = -2; d <= 2; ++d) want += in[std::clamp(i + d, 0L, n - 1)];
      ASSERT_NEAR(out[i], want, 1e-5 * (1 + std::fabs(want))) << "path " << int(path) << ", element " << i;
    }
  }
}

TEST(LabReadOnly, PolynomialMatchesTheHostUnderEveryCoefficientPath) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const std::vector<float> in = random_floats(rng, rng.uniform_int(1, 100000));
  const std::vector<float> c = random_floats(rng, kPolynomialTerms);
  for (CoefficientPath path :
       {CoefficientPath::Constant, CoefficientPath::Global, CoefficientPath::ConstantDivergent}) {
    const std::vector<float> out = run_polynomial(path, in, c);
    ASSERT_EQ(out.size(), in.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      const int shift = path == CoefficientPath::ConstantDivergent ? int(i % kPolynomialTerms) : 0;
      double want = 0;
      for (int k = kPolynomialTerms - 1; k >= 0; --k) want = want * in[i] + c[(k + shift) % kPolynomialTerms];
      ASSERT_NEAR(out[i], want, 1e-5 * (1 + std::fabs(want))) << "path " << int(path) << ", element " << i;
    }
  }
}

}  // namespace
}  // namespace coalesce::lab
