// Shared helpers of the kernel tests: the odd sizes every kernel is checked at, and state comparisons.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tests/support/cuda_skip.h"
#include "sim/force_method.h"
#include "sim/particle.h"
#include "sim/sim_params.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {

// A step's parameters with the force method they are for: the method is backend state, so a test sets it
// (Backend::set_force_method) on every backend it steps with `params`, the GPU's and the CPU reference's.
struct MethodParams {
  ForceMethod method;
  SimParams params;
};

// A random all-pairs step that moves the state visibly in one step (dt 0.05-0.25) and is never singular
// (softening 0.02-0.1): the kick is large against the rounding of v. One-sided; a mutual test sets method.
inline MethodParams random_all_pairs_step(TestRng& rng) {
  SimParams params;
  params.dt = rng.uniform(0.05f, 0.25f);
  params.softening = rng.uniform(0.02f, 0.1f);
  return {ForceMethod::OneSidedAllPairs, params};
}

// A random attractor step: 1 to 16 attractors, fixed and orbiting, around the unit cloud.
inline MethodParams random_attractor_step(TestRng& rng) {
  SimParams params;
  params.dt = rng.uniform(0.05f, 0.25f);
  params.softening = rng.uniform(0.02f, 0.1f);
  params.attractors.count = rng.uniform_int(1, kMaxAttractors);
  for (int k = 0; k < params.attractors.count; ++k)
    params.attractors.items[k] = {{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-0.2f, 0.2f)},
                                  rng.uniform(0.1f, 2.0f),
                                  k % 2 == 0 ? 0.0f : rng.uniform(0.1f, 1.0f),
                                  rng.uniform(-2.0f, 2.0f),
                                  rng.uniform(0.0f, 6.28f)};
  return {ForceMethod::Attractors, params};
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
