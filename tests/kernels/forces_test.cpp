// Forces (kick) against the CPU backend, all-pairs and attractors, every layout; GPU layouts agree bitwise.
//
// Tolerances. The GPU evaluates 1/sqrt(r^2) with rsqrtf (MUFU.RSQ, relative error <= 2^-22.9 ~ 1.3e-7) and
// contracts multiply-adds into FMAs; the CPU uses 1.0f / std::sqrt (correctly rounded) without FMA. Each
// pair term therefore differs by a few 1e-7 relative. For all-pairs the GPU adds a body's terms in pieces
// (one partial sum per segment of the j range, kernels/forces_all_pairs.cu), and cancellation between
// terms of opposite sign can amplify the relative error of the sum
// by the ratio sum|a_j| / |sum a_j| (tens for random clouds), so the kick (the change of velocity in one
// step) is held to 1e-4 norm-wise and the whole state after the step to 1e-5. Attractors sum at most 16
// terms: 1e-5 on the kick. A step with dt = O(0.1) makes the kick large against the rounding of v itself.
#include <gtest/gtest.h>

#include <cmath>
#include <string_view>

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
using testing::random_all_pairs_step;
using testing::random_attractor_step;

// Steps the same state on the CPU and on the GPU in every layout; GPU layouts must agree bitwise.
void expect_step_matches_cpu(const std::vector<Particle>& state, const testing::MethodParams& step,
                             double time, double kick_tolerance, double state_tolerance) {
  const int n = static_cast<int>(state.size());
  const std::string_view method = method_info(step.method).name;
  CpuBackend cpu(n, Layout::AoS, 2);
  cpu.upload(state);
  cpu.set_force_method(step.method);
  cpu.step(step.params, time);
  const std::vector<Particle> expected = cpu.download();

  std::vector<Particle> first_gpu;
  for (Layout layout : kAllLayouts) {
    CudaBackend gpu(n, layout);
    gpu.upload(state);
    gpu.set_force_method(step.method);
    gpu.step(step.params, time);
    const std::vector<Particle> got = gpu.download();
    const double kick_error =
        relative_error(testing::difference(got, state), testing::difference(expected, state));
    EXPECT_LE(kick_error, kick_tolerance) << method << " N=" << n << " " << to_string(layout);
    EXPECT_LE(relative_error(got, expected), state_tolerance) << method << " N=" << n;
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
  // Odd sizes around the 256-body tile and the 1024-body chunk; the CPU reference is O(N^2), so the
  // largest size here is a few thousand (larger N: the sampled test below).
  for (int n : {1, 31, 33, 255, 257, 513, 1023, 1025, testing::size_or_quick(4099, 300)})
    expect_step_matches_cpu(testing::random_particles(rng, n), random_all_pairs_step(rng), 0.0, 1e-4, 1e-5);
}

// Past 512 x (the resident blocks) bodies, a block's share of the work spans several body chunks
// (kernels/forces_all_pairs.cu): checked on a random sample of bodies against sums in double precision,
// each held to 4 sqrt(N) float roundings of the sum of the terms' magnitudes (a float sum of N terms drifts
// like a random walk; cancellation cannot make it fail or pass). A lost or doubled partial sum, half a
// body's pull, is far outside that.
void expect_sampled_bodies_match_double_sums(TestRng& rng, ForceMethod method, int n) {
  const std::vector<Particle> state = testing::random_particles(rng, n);
  const SimParams params = random_all_pairs_step(rng).params;
  const Layout layout = testing::random_layout(rng);
  CudaBackend gpu(n, layout);
  gpu.upload(state);
  gpu.set_force_method(method);
  gpu.kick(params, 0.0);
  const std::vector<Particle> got = gpu.download();
  const double eps2 = softening_squared<float>(params);  // the fp32 kernel's
  for (int sample = 0; sample < 48; ++sample) {
    const int i = rng.uniform_int(0, n - 1);
    double sum[3] = {0, 0, 0}, magnitude[3] = {0, 0, 0};
    for (const Particle& pj : state) {
      const double d[3] = {double(pj.x) - state[i].x, double(pj.y) - state[i].y, double(pj.z) - state[i].z};
      const double r2 = eps2 + d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const double s = pj.mass / (r2 * std::sqrt(r2));
      for (int a = 0; a < 3; ++a) {
        sum[a] += d[a] * s;
        magnitude[a] += std::abs(d[a] * s);
      }
    }
    const double kick[3] = {double(got[i].vx) - state[i].vx, double(got[i].vy) - state[i].vy,
                            double(got[i].vz) - state[i].vz};
    const double v[3] = {state[i].vx, state[i].vy, state[i].vz};
    const double walk = 4.0 * std::sqrt(static_cast<double>(n)) * 0x1p-24;
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(kick[a], params.dt * sum[a], walk * params.dt * magnitude[a] + 0x1p-23 * std::abs(v[a]))
          << method_info(method).name << " N=" << n << " body " << i << " axis " << a << " "
          << to_string(layout);
  }
}

TEST(CudaForces, AllPairsLargeNMatchesDoubleSumsOnSampledBodies) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  expect_sampled_bodies_match_double_sums(rng, ForceMethod::OneSidedAllPairs,
                                          testing::size_or_quick(rng.uniform_int(600000, 700000), 5000));
}

// The mutual scheme (kernels/forces_all_pairs_mutual.cu) against the CPU's mutual reference at sizes around
// its 32-body lanes, rows (kernels/CMakeLists.txt's bodies per lane x 32) and tiles (N = 1: nothing but the
// diagonal; 2: one pair), then at a random size of tens of tiles against double sums: a pair lost or
// evaluated twice moves a body's pull by a whole term, far outside either tolerance. Two runs of one state
// agree bitwise (no atomics).
TEST(CudaForces, MutualMatchesTheCpuMutualReference) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int random_n = testing::size_or_quick(rng.uniform_int(3000, 6000), 700);
  for (int n : {1, 2, 31, 33, 255, 257, 513, 1023, 1025, 2049, random_n}) {
    testing::MethodParams step = random_all_pairs_step(rng);
    step.method = ForceMethod::MutualAllPairs;
    expect_step_matches_cpu(testing::random_particles(rng, n), step, 0.0, 1e-4, 1e-5);
  }
}

TEST(CudaForces, MutualLargeNMatchesDoubleSumsAndRepeatsBitwise) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  expect_sampled_bodies_match_double_sums(rng, ForceMethod::MutualAllPairs,
                                          testing::size_or_quick(rng.uniform_int(200000, 300000), 5000));
  const int n = rng.uniform_int(20000, 40000);
  const std::vector<Particle> state = testing::random_particles(rng, n);
  const SimParams params = random_all_pairs_step(rng).params;
  std::vector<Particle> runs[2];
  for (auto& run : runs) {
    CudaBackend gpu(n, testing::random_layout(rng));
    gpu.upload(state);
    gpu.set_force_method(ForceMethod::MutualAllPairs);
    gpu.step(params, 0.0);
    run = gpu.download();
  }
  EXPECT_TRUE(bitwise_equal(runs[0], runs[1])) << "two mutual runs of one state differ, N=" << n;
}

TEST(CudaForces, AttractorsMatchTheCpu) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : testing::odd_sizes())
    expect_step_matches_cpu(testing::random_particles(rng, n), random_attractor_step(rng),
                            rng.uniform(0.0f, 10.0f), 1e-5, 1e-6);
}

TEST(CudaForces, ReportsInteractionsAndFormulaBytes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = 777;
  CudaBackend gpu(n, Layout::Float4);
  gpu.upload(testing::random_particles(rng, n));
  const testing::MethodParams step = random_all_pairs_step(rng);
  gpu.set_force_method(step.method);
  gpu.kick(step.params, 0.0);
  gpu.synchronize();
  const std::vector<KernelTiming> timings = gpu.poll_timings();
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].kernel, KernelKind::Forces);
  EXPECT_DOUBLE_EQ(timings[0].interactions, 777.0 * 777.0);
  // The state's bytes plus the partial sums written and read back (tests/kernels/partial_sums_test.cpp).
  EXPECT_GT(timings[0].scratch_bytes, 0.0);
  EXPECT_DOUBLE_EQ(timings[0].bytes - timings[0].scratch_bytes,
                   bytes_moved(KernelKind::Forces, Layout::Float4, step.method, n));
}

}  // namespace
}  // namespace coalesce
