// Forces (kick) against the CPU backend, all-pairs and attractors, every layout; GPU layouts agree bitwise.
//
// Tolerances. The GPU evaluates 1/sqrt(r^2) with rsqrtf (MUFU.RSQ, relative error <= 2^-22.9 ~ 1.3e-7) and
// contracts multiply-adds into FMAs; the CPU uses 1.0f / std::sqrt (correctly rounded) without FMA. Each
// pair term therefore differs by a few 1e-7 relative. For all-pairs the sum over N terms runs in the same
// order on both, and cancellation between terms of opposite sign can amplify the relative error of the sum
// by the ratio sum|a_j| / |sum a_j| (tens for random clouds), so the kick (the change of velocity in one
// step) is held to 1e-4 norm-wise and the whole state after the step to 1e-5. Attractors sum at most 16
// terms: 1e-5 on the kick. A step with dt = O(0.1) makes the kick large against the rounding of v itself.
#include <gtest/gtest.h>

#include "kernels/cuda_backend.h"
#include "sim/byte_counts.h"
#include "sim/cpu_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::bitwise_equal;
using testing::relative_error;
using testing::TestRng;

SimParams all_pairs_params(TestRng& rng) {
  SimParams params;
  params.solver = Solver::AllPairs;
  params.dt = rng.uniform(0.05f, 0.25f);
  params.softening = rng.uniform(0.02f, 0.1f);
  return params;
}

SimParams attractor_params(TestRng& rng) {
  SimParams params;
  params.solver = Solver::Attractors;
  params.dt = rng.uniform(0.05f, 0.25f);
  params.softening = rng.uniform(0.02f, 0.1f);
  params.attractors.count = rng.uniform_int(1, kMaxAttractors);
  for (int k = 0; k < params.attractors.count; ++k)
    params.attractors.items[k] = {{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-0.2f, 0.2f)},
                                  rng.uniform(0.1f, 2.0f),
                                  k % 2 == 0 ? 0.0f : rng.uniform(0.1f, 1.0f),
                                  rng.uniform(-2.0f, 2.0f),
                                  rng.uniform(0.0f, 6.28f)};
  return params;
}

// Steps the same state on the CPU and on the GPU in every layout; GPU layouts must agree bitwise.
void expect_step_matches_cpu(const std::vector<Particle>& state, const SimParams& params, double time,
                             double kick_tolerance, double state_tolerance) {
  const int n = static_cast<int>(state.size());
  CpuBackend cpu(n, Layout::AoS, 2);
  cpu.upload(state);
  cpu.step(params, time);
  const std::vector<Particle> expected = cpu.download();

  std::vector<Particle> first_gpu;
  for (Layout layout : kAllLayouts) {
    CudaBackend gpu(n, layout);
    gpu.upload(state);
    gpu.step(params, time);
    const std::vector<Particle> got = gpu.download();
    const double kick_error =
        relative_error(testing::difference(got, state), testing::difference(expected, state));
    EXPECT_LE(kick_error, kick_tolerance)
        << to_string(params.solver) << " N=" << n << " " << to_string(layout);
    EXPECT_LE(relative_error(got, expected), state_tolerance) << to_string(params.solver) << " N=" << n;
    if (first_gpu.empty()) {
      first_gpu = got;
    } else {
      EXPECT_TRUE(bitwise_equal(got, first_gpu)) << "GPU layouts differ: " << to_string(layout) << " N=" << n;
    }
  }
}

TEST(CudaForces, AllPairsMatchesTheCpu) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  // Odd sizes around the 256-body tile and the 512-body block; the CPU reference is O(N^2), so the
  // largest size here is a few thousand (N = 1,000,003 is covered by the memory-bound kernels).
  for (int n : {1, 31, 33, 255, 257, 513, testing::size_or_quick(4099, 300)})
    expect_step_matches_cpu(testing::random_particles(rng, n), all_pairs_params(rng), 0.0, 1e-4, 1e-5);
}

TEST(CudaForces, AttractorsMatchTheCpu) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : testing::odd_sizes())
    expect_step_matches_cpu(testing::random_particles(rng, n), attractor_params(rng),
                            rng.uniform(0.0f, 10.0f), 1e-5, 1e-6);
}

TEST(CudaForces, ReportsInteractionsAndFormulaBytes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = 777;
  CudaBackend gpu(n, Layout::Float4);
  gpu.upload(testing::random_particles(rng, n));
  const SimParams params = all_pairs_params(rng);
  gpu.kick(params, 0.0);
  gpu.synchronize();
  const std::vector<KernelTiming> timings = gpu.poll_timings();
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].kernel, KernelKind::Forces);
  EXPECT_DOUBLE_EQ(timings[0].interactions, 777.0 * 777.0);
  EXPECT_DOUBLE_EQ(timings[0].bytes, bytes_moved(KernelKind::Forces, Layout::Float4, Solver::AllPairs, n));
}

}  // namespace
}  // namespace coalesce
