// The bench's noise measure: the coefficient of variation of a row's samples, checked against an
// independent one-pass (Welford) computation on fresh random samples.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/bench/bench_stats.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

double welford_cv_percent(const std::vector<double>& xs) {
  double mean = 0.0, m2 = 0.0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double delta = xs[i] - mean;
    mean += delta / static_cast<double>(i + 1);
    m2 += delta * (xs[i] - mean);
  }
  return 100.0 * std::sqrt(m2 / static_cast<double>(xs.size() - 1)) / mean;
}

TEST(BenchStats, CoefficientOfVariationMatchesAnIndependentComputation) {
  testing::TestRng rng;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<double> ms(static_cast<std::size_t>(rng.uniform_int(2, 200)));
    const double centre = rng.uniform(0.001f, 50.0f);
    const double spread = rng.uniform(0.0f, 0.2f);
    for (double& x : ms) x = centre * (1.0 + spread * rng.uniform(-1.0f, 1.0f));
    const double cv = coefficient_of_variation_percent(ms);
    EXPECT_NEAR(cv, welford_cv_percent(ms), 1e-9 * (1.0 + cv)) << "n = " << ms.size();
    // A row timed in other units (or on a GPU twice as fast) is exactly as noisy.
    std::vector<double> scaled = ms;
    const double factor = rng.uniform(0.01f, 100.0f);
    for (double& x : scaled) x *= factor;
    EXPECT_NEAR(coefficient_of_variation_percent(scaled), cv, 1e-9 * (1.0 + cv));
  }
}

TEST(BenchStats, IdenticalOrSingleSamplesHaveNoVariation) {
  testing::TestRng rng;
  const double x = rng.uniform(0.001f, 10.0f);
  const std::vector<double> same(static_cast<std::size_t>(rng.uniform_int(2, 50)), x);
  EXPECT_EQ(coefficient_of_variation_percent(same), 0.0);
  EXPECT_EQ(coefficient_of_variation_percent({x}), 0.0);
  EXPECT_EQ(coefficient_of_variation_percent({}), 0.0);
}

}  // namespace
}  // namespace coalesce
