// Error percentiles of an approximate force method (sim/force_error.h).
#include "sim/force_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <unordered_set>

namespace coalesce {

std::vector<int> error_targets(int n, int count, std::uint64_t seed) {
  std::vector<int> chosen;
  if (count >= n) {
    chosen.resize(static_cast<std::size_t>(std::max(n, 0)));
    std::iota(chosen.begin(), chosen.end(), 0);
    return chosen;
  }
  // Floyd's sampling: count draws, each body at most once, in memory for count bodies, not n (the panel
  // checks a 16M run once a second).
  std::mt19937_64 rng(seed);
  std::unordered_set<int> taken;
  chosen.reserve(static_cast<std::size_t>(std::max(count, 0)));
  for (int j = n - count; j < n; ++j) {
    const int pick = std::uniform_int_distribution<int>(0, j)(rng);
    const int body = taken.count(pick) ? j : pick;
    taken.insert(body);
    chosen.push_back(body);
  }
  std::sort(chosen.begin(), chosen.end());
  return chosen;
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
