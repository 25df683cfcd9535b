// Error percentiles of an approximate force method (sim/force_error.h).
#include "sim/force_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace coalesce {

std::vector<int> error_targets(int n, int count, std::uint64_t seed) {
  std::vector<int> all(static_cast<std::size_t>(std::max(n, 0)));
  std::iota(all.begin(), all.end(), 0);
  if (count >= n) return all;
  // A partial Fisher-Yates shuffle: count draws, each body at most once.
  std::mt19937_64 rng(seed);
  for (int k = 0; k < count; ++k) {
    std::uniform_int_distribution<int> pick(k, n - 1);
    std::swap(all[static_cast<std::size_t>(k)], all[static_cast<std::size_t>(pick(rng))]);
  }
  all.resize(static_cast<std::size_t>(count));
  std::sort(all.begin(), all.end());
  return all;
}

ForceErrors force_errors(const AccelerationSample& sample) {
  std::vector<double> relative;
  for (std::size_t k = 0; k < sample.exact.size() && k < sample.method.size(); ++k) {
    const Vec3T<double>& e = sample.exact[k];
    const Vec3T<double>& a = sample.method[k];
    const double norm = std::sqrt(e.x * e.x + e.y * e.y + e.z * e.z);
    if (!(norm > 0)) continue;
    const double dx = a.x - e.x, dy = a.y - e.y, dz = a.z - e.z;
    const double error = std::sqrt(dx * dx + dy * dy + dz * dz) / norm;
    // A NaN from a broken walk sorts as the worst error, never as undefined order.
    relative.push_back(std::isnan(error) ? std::numeric_limits<double>::infinity() : error);
  }
  ForceErrors out;
  out.targets = static_cast<int>(relative.size());
  if (relative.empty()) return out;
  std::sort(relative.begin(), relative.end());
  // The nearest-rank percentile: the smallest value with at least p of the sample at or below it.
  const auto rank = [&](double p) {
    const auto at = static_cast<std::size_t>(std::ceil(p * static_cast<double>(relative.size())));
    return relative[std::min(relative.size() - 1, at > 0 ? at - 1 : 0)];
  };
  out.p50 = rank(0.5);
  out.p99 = rank(0.99);
  out.max = relative.back();
  return out;
}

}  // namespace coalesce
