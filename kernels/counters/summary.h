// Count, mean, min and max of a stream of values: the hardware series' summaries and the sampler's
// decode times share it.
#pragma once

#include <algorithm>

namespace coalesce {

struct Summary {
  long count = 0;
  double sum = 0.0;
  double min = 0.0;
  double max = 0.0;
  void add(double value) {
    min = count == 0 ? value : std::min(min, value);
    max = count == 0 ? value : std::max(max, value);
    sum += value;
    ++count;
  }
  double mean() const { return count > 0 ? sum / static_cast<double>(count) : 0.0; }
};

}  // namespace coalesce
