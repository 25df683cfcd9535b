// The drift kernel against the CPU backend, bitwise: both round x + v*dt as a multiply then an add
// (integrate.cu is built with -fmad=false for exactly this).
#include <gtest/gtest.h>

#include "kernels/cuda_backend.h"
#include "sim/byte_counts.h"
#include "sim/cpu_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::bitwise_equal;
using testing::TestRng;

// Attractors with none defined: the kick adds exactly 0 on both backends, so a step is a pure drift.
testing::MethodParams drift_only(float dt) {
  SimParams params;
  params.dt = dt;
  params.attractors.count = 0;
  return {ForceMethod::Attractors, params};
}

void expect_drift_matches_cpu(TestRng& rng, int n, Layout layout) {
  const std::vector<Particle> state = testing::random_particles(rng, n);
  const float dt = rng.uniform(1e-3f, 0.5f);
  CpuBackend cpu(n, layout, 2);
  cpu.upload(state);
  const testing::MethodParams step = drift_only(dt);
  cpu.set_force_method(step.method);
  cpu.step(step.params, 0.0);
  CudaBackend gpu(n, layout);
  gpu.upload(state);
  gpu.drift(dt);
  const std::vector<Particle> got = gpu.download();
  EXPECT_TRUE(bitwise_equal(got, cpu.download()))
      << "N=" << n << " layout " << to_string(layout) << " dt " << dt;
  EXPECT_FALSE(bitwise_equal(got, state)) << "the drift did not move anything";
}

TEST(CudaIntegrate, MatchesTheCpuBitwiseAtOddSizes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : testing::odd_sizes())
    for (Layout layout : kAllLayouts) expect_drift_matches_cpu(rng, n, layout);
}

TEST(CudaIntegrate, MatchesTheCpuBitwiseAtLargeN) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = testing::size_or_quick(4 << 20, 4099);
  for (Layout layout : kAllLayouts) expect_drift_matches_cpu(rng, n, layout);
}

TEST(CudaIntegrate, StepReportsBothKernelsWithFormulaBytes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = 1000;
  for (Layout layout : kAllLayouts) {
    CudaBackend gpu(n, layout);
    gpu.upload(testing::random_particles(rng, n));
    const testing::MethodParams step = drift_only(1e-3f);
    gpu.set_force_method(step.method);
    gpu.step(step.params, 0.0);
    gpu.synchronize();
    const std::vector<KernelTiming> timings = gpu.poll_timings();
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[0].kernel, KernelKind::Forces);
    EXPECT_EQ(timings[1].kernel, KernelKind::Integrate);
    EXPECT_DOUBLE_EQ(timings[1].bytes, bytes_moved(KernelKind::Integrate, layout, step.method, n));
    for (const KernelTiming& t : timings) {
      EXPECT_EQ(t.layout, layout);
      EXPECT_GT(t.milliseconds, 0.0);
    }
    EXPECT_TRUE(gpu.poll_timings().empty()) << "each timing is reported once";
  }
}

}  // namespace
}  // namespace coalesce
