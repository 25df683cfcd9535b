// How much a bench row's samples vary: the coefficient of variation, and the threshold above which the
// table and the JSON call a row noisy (its median is then less trustworthy than its neighbours').
#pragma once

#include <cmath>
#include <vector>

namespace coalesce {

inline constexpr double kNoisyCvPercent = 2.0;

// 100 x sample standard deviation / mean (n - 1 in the variance); 0 for fewer than two samples.
inline double coefficient_of_variation_percent(const std::vector<double>& samples) {
  if (samples.size() < 2) return 0.0;
  double mean = 0.0;
  for (double x : samples) mean += x;
  mean /= static_cast<double>(samples.size());
  if (mean <= 0.0) return 0.0;
  double squares = 0.0;
  for (double x : samples) squares += (x - mean) * (x - mean);
  return 100.0 * std::sqrt(squares / static_cast<double>(samples.size() - 1)) / mean;
}

}  // namespace coalesce
