// The error check's pieces (sim/force_error.h): distinct random targets, and percentiles of the relative
// error that match a sort done here, on fresh random samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "sim/force_error.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

TEST(ForceError, TargetsAreDistinctSortedAndReproducible) {
  testing::TestRng rng;
  const int n = rng.uniform_int(1, 5000);
  const int count = rng.uniform_int(1, 2 * n);
  const std::uint64_t seed = rng.engine()();
  const std::vector<int> targets = error_targets(n, count, seed);
  ASSERT_EQ(static_cast<int>(targets.size()), std::min(n, count)) << "n " << n << " count " << count;
  EXPECT_TRUE(std::is_sorted(targets.begin(), targets.end()));
  EXPECT_EQ(std::set<int>(targets.begin(), targets.end()).size(), targets.size());
  EXPECT_TRUE(targets.empty() || (targets.front() >= 0 && targets.back() < n));
  EXPECT_EQ(error_targets(n, count, seed), targets);
}

TEST(ForceError, PercentilesAreTheNearestRanksOfTheRelativeErrors) {
  testing::TestRng rng;
  const int count = rng.uniform_int(1, 3000);
  AccelerationSample sample;
  std::vector<double> expected;
  for (int k = 0; k < count; ++k) {
    const Vec3T<double> exact{rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f)};
    const double scale = rng.uniform(0.0f, 1e-3f);
    const Vec3T<double> off{scale * rng.uniform(-1.0f, 1.0f), scale * rng.uniform(-1.0f, 1.0f),
                            scale * rng.uniform(-1.0f, 1.0f)};
    sample.targets.push_back(k);
    sample.exact.push_back(exact);
    const Vec3T<double> method{exact.x + off.x, exact.y + off.y, exact.z + off.z};
    sample.method.push_back(method);
    // The difference as stored (method - exact), not `off`: the sums round.
    const double dx = method.x - exact.x, dy = method.y - exact.y, dz = method.z - exact.z;
    const double norm = std::sqrt(exact.x * exact.x + exact.y * exact.y + exact.z * exact.z);
    if (norm > 0) expected.push_back(std::sqrt(dx * dx + dy * dy + dz * dz) / norm);
  }
  // A body with no pull at all has no relative error: it is left out, not counted as 0 or infinity.
  sample.targets.push_back(count);
  sample.exact.push_back({0, 0, 0});
  sample.method.push_back({1, 0, 0});
  std::sort(expected.begin(), expected.end());
  const ForceErrors e = force_errors(sample);
  ASSERT_EQ(e.targets, static_cast<int>(expected.size()));
  const auto rank = [&](double p) {
    const std::size_t at = static_cast<std::size_t>(std::ceil(p * static_cast<double>(expected.size())));
    return expected[std::max<std::size_t>(at, 1) - 1];
  };
  EXPECT_DOUBLE_EQ(e.p50, rank(0.5));
  EXPECT_DOUBLE_EQ(e.p99, rank(0.99));
  EXPECT_DOUBLE_EQ(e.max, expected.back());
  EXPECT_LE(e.p50, e.p99);
  EXPECT_LE(e.p99, e.max);
  EXPECT_EQ(force_errors(AccelerationSample{}).targets, 0);
}

}  // namespace
}  // namespace coalesce
