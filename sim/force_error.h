// The error an approximate force method makes, measured as peers cannot: its accelerations of a few random
// targets against the exact float64 direct sum over all N bodies (bench's tree rows; the panel's live check).
#pragma once

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/common.h"
#include "sim/tree_settings.h"

namespace coalesce {

// Targets a check samples: enough for a 99th percentile from ten bodies above it.
inline constexpr int kErrorTargets = 1024;

// The method's and the direct sum's accelerations of the same targets (state indices), widened to double.
struct AccelerationSample {
  std::vector<int> targets;
  std::vector<Vec3T<double>> method;
  std::vector<Vec3T<double>> exact;
};

// Percentiles of |a - exact| / |exact| over the sample's targets whose exact acceleration is not 0 (a body
// alone, or at the centre of a symmetric scene, has no relative error to speak of).
struct ForceErrors {
  int targets = 0;  // counted in the percentiles
  double p50 = 0, p99 = 0, max = 0;
};

// `count` distinct bodies of n (all of them when count >= n), in increasing order, from `seed`.
std::vector<int> error_targets(int n, int count, std::uint64_t seed);
ForceErrors force_errors(const AccelerationSample& sample);

// What the tree did in its last kick: its counts over the kick's targets and its stages' times, named as
// the backend can split them ("sort", "build", "upsweep", "walk" on a GPU; "build", "walk" on the CPU).
struct TreeReport {
  TreeSettings settings;
  int targets = 0;
  TreeCounts counts;
  std::vector<std::pair<std::string_view, double>> stages_ms;
};

}  // namespace coalesce
