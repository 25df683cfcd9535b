// Shared helpers of the kernel tests: the odd sizes every kernel is checked at, and state comparisons.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/support/cuda_skip.h"
#include "sim/particle.h"

namespace coalesce::testing {

// The odd sizes every memory-bound kernel is checked at (block edges, a prime-ish large N).
inline std::vector<int> odd_sizes() {
  return {1, 31, 33, 257, size_or_quick(1'000'003, 1'003)};
}

inline std::vector<float> floats_of(const std::vector<Particle>& state) {
  std::vector<float> out(state.size() * kFieldsPerParticle);
  if (!state.empty()) std::memcpy(out.data(), state.data(), out.size() * sizeof(float));
  return out;
}

// Per-particle change between two states (what one step did): isolates the kick from the large values.
inline std::vector<Particle> difference(const std::vector<Particle>& after,
                                        const std::vector<Particle>& before) {
  std::vector<Particle> out(after.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    const float* a = &after[i].x;
    const float* b = &before[i].x;
    float* o = &out[i].x;
    for (int f = 0; f < kFieldsPerParticle; ++f) o[f] = a[f] - b[f];
  }
  return out;
}

}  // namespace coalesce::testing
