// Shared bits of the lab tests: the visible skip without a device, random vectors and a host transpose.
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {

inline std::vector<float> random_floats(TestRng& rng, int n, float lo = -1.0f, float hi = 1.0f) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (float& x : v) x = rng.uniform(lo, hi);
  return v;
}

// A random size in [lo, hi] that is a multiple of `multiple`.
inline int random_size(TestRng& rng, int lo, int hi, int multiple) {
  return rng.uniform_int(lo / multiple, hi / multiple) * multiple;
}

}  // namespace coalesce::testing
