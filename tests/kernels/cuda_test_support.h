// Shared helpers for the GPU tests: visible skips without a device, sanitizer-sized runs, state comparisons.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/device_probe.h"
#include "sim/particle.h"

namespace coalesce::testing {

inline bool cuda_available() {
  static const bool available = cuda_device_count(nullptr) > 0;
  return available;
}

// COALESCE_SANITIZER_QUICK=1 shrinks every size, so compute-sanitizer runs finish in minutes.
inline bool sanitizer_quick() {
  const char* env = std::getenv("COALESCE_SANITIZER_QUICK");
  return env != nullptr && std::strcmp(env, "0") != 0;
}

// `full` normally, `quick` under COALESCE_SANITIZER_QUICK.
inline int size_or_quick(int full, int quick) {
  return sanitizer_quick() ? quick : full;
}

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

#define COALESCE_REQUIRE_CUDA()                                                            \
  do {                                                                                     \
    if (!::coalesce::testing::cuda_available()) GTEST_SKIP() << "skipped: no CUDA device"; \
  } while (0)
