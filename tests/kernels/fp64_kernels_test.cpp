// fp64 on the GPU: every kernel in every layout against the CPU backend in fp64 (the reference), the GPU
// layouts bitwise equal, all-pairs against a long-double reference, and the precision switch on the device.
//
// Tolerances. Drift and pack are built with -fmad=false (kernels/CMakeLists.txt): x + v dt and |v| round
// exactly as on the CPU, so they are compared bitwise in fp64 as in fp32. The forces use the fp64
// reciprocal square root of sim/physics.h (hardware seed + one third-order Newton step, within a few ulps
// of 1/sqrt) and FMAs, and all-pairs adds a body's terms in per-block pieces: each pair term differs from
// the CPU's by a few 2^-53, grown by cancellation (tens, as in the fp32 tests), so the kick is held to 1e-12
// and the state to 1e-14; fp32's bounds are 1e-4 and 1e-5 (forces_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/cuda_backend.h"
#include "sim/byte_counts.h"
#include "sim/cpu_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/reference_nbody.h"
#include "tests/support/test_random.h"
#include "tests/support/typed_value.h"

namespace coalesce {
namespace {

using testing::TestRng;
using testing::random_all_pairs_step;
using testing::random_attractor_step;
using testing::relative_error;

double kick_error(const std::vector<ParticleF64>& got, const std::vector<ParticleF64>& want,
                  const std::vector<ParticleF64>& before) {
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double g[3] = {got[i].vx - before[i].vx, got[i].vy - before[i].vy, got[i].vz - before[i].vz};
    const double w[3] = {want[i].vx - before[i].vx, want[i].vy - before[i].vy, want[i].vz - before[i].vz};
    for (int k = 0; k < 3; ++k) {
      diff += static_cast<long double>(g[k] - w[k]) * (g[k] - w[k]);
      norm += static_cast<long double>(w[k]) * w[k];
    }
  }
  // N = 1: the only pull is the body's own, exactly 0, so the error is absolute.
  return static_cast<double>(norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff));
}

void expect_step_matches_cpu(const std::vector<ParticleF64>& state, const testing::MethodParams& step,
                             double time) {
  const int n = static_cast<int>(state.size());
  const std::string_view method = method_info(step.method).name;
  CpuBackend cpu(n, Layout::AoS, 2, Precision::Fp64);
  cpu.upload(state);
  cpu.set_force_method(step.method);
  cpu.step(step.params, time);
  const std::vector<ParticleF64> expected = cpu.download_f64();
  std::vector<ParticleF64> first;
  for (Layout layout : kAllLayouts) {
    CudaBackend gpu(n, layout, 0, Precision::Fp64);
    gpu.upload(state);
    gpu.set_force_method(step.method);
    gpu.step(step.params, time);
    const std::vector<ParticleF64> got = gpu.download_f64();
    EXPECT_LE(kick_error(got, expected, state), 1e-12) << method << " N=" << n << " " << to_string(layout);
    EXPECT_LE(relative_error(got, expected), 1e-14) << method << " N=" << n;
    if (first.empty())
      first = got;
    else
      EXPECT_TRUE(testing::bitwise_equal(got, first)) << "GPU layouts differ: " << to_string(layout) << " N=" << n;
  }
}

TEST(CudaFp64, AllPairsMatchesTheCpuInEveryLayout) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : {1, 31, 257, 1025, testing::size_or_quick(3001, 300)})
    expect_step_matches_cpu(testing::random_particles_wide(rng, n), random_all_pairs_step(rng), 0.0);
}

// The mutual scheme in fp64 against the CPU's mutual reference, at sizes around its lanes, rows and tiles
// (kernels/CMakeLists.txt): a pair lost or counted twice moves a pull by a whole term.
TEST(CudaFp64, MutualMatchesTheCpuMutualReferenceInEveryLayout) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : {1, 2, 31, 255, 257, 513, 1025, testing::size_or_quick(rng.uniform_int(3000, 6000), 700)}) {
    testing::MethodParams step = random_all_pairs_step(rng);
    step.method = ForceMethod::MutualAllPairs;
    expect_step_matches_cpu(testing::random_particles_wide(rng, n), step, 0.0);
  }
}

TEST(CudaFp64, AttractorsMatchTheCpuInEveryLayout) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : testing::odd_sizes())
    expect_step_matches_cpu(testing::random_particles_wide(rng, n), random_attractor_step(rng), rng.uniform(0.0f, 10.0f));
}

// The reference: a float64 run held to the exact (long-double) one stepped with the parameters as
// typed (decimals no float holds: with float parameters the runs were about 1e-10 off), in both all-pairs
// schemes and the attractors solver, every layout.
TEST(CudaFp64, RunsFollowTheLongDoubleReferenceSteppedWithTheTypedParameters) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = rng.uniform_int(300, 2000), steps = rng.uniform_int(3, 10);
  const std::vector<ParticleF64> start = testing::random_particles_wide(rng, n);
  SimParams all_pairs;
  all_pairs.dt = testing::typed_value(rng, 1e-3, 2e-2).value;
  all_pairs.softening = testing::typed_value(rng, 0.02, 0.1).value;
  SimParams attractors = random_attractor_step(rng).params;
  attractors.dt = all_pairs.dt;
  attractors.softening = all_pairs.softening;
  for (int k = 0; k < attractors.attractors.count; ++k) {
    Attractor& a = attractors.attractors.items[k];
    a.center = {testing::typed_value(rng, 0.1, 1).value, -testing::typed_value(rng, 0.1, 1).value,
                testing::typed_value(rng, 0.01, 0.2).value};
    a.mass = testing::typed_value(rng, 0.1, 2).value;
    a.angular_speed = testing::typed_value(rng, 0.1, 2).value;
    a.phase = testing::typed_value(rng, 0.01, 6).value;
    if (a.orbit_radius != 0) a.orbit_radius = testing::typed_value(rng, 0.1, 1).value;
  }
  for (const auto& [method, params] : {testing::MethodParams{ForceMethod::OneSidedAllPairs, all_pairs},
                                       testing::MethodParams{ForceMethod::MutualAllPairs, all_pairs},
                                       testing::MethodParams{ForceMethod::Attractors, attractors}}) {
    const auto typed = testing::reference_run(start, method, params, steps);
    const auto rounded = testing::reference_run(start, method, testing::float_parameters(params), steps);
    ASSERT_GT(testing::relative_error_to(testing::reference_records(rounded), typed), 1e-11)
        << "float parameters would pass too";
    for (Layout layout : kAllLayouts) {
      CudaBackend gpu(n, layout, 0, Precision::Fp64);
      gpu.upload(start);
      gpu.set_force_method(method);
      for (int s = 0; s < steps; ++s) gpu.step(params, s * params.dt);
      EXPECT_LE(testing::relative_error_to(gpu.download_f64(), typed), 1e-12)
          << method_info(method).name << " " << to_string(layout) << " n=" << n << " steps=" << steps;
    }
  }
}

// Drift and pack round exactly as the CPU's (bitwise), conversions keep every double, in every layout.
TEST(CudaFp64, DriftPackAndConvertAreBitwiseTheCpus) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : testing::odd_sizes()) {
    const std::vector<ParticleF64> state = testing::random_particles_wide(rng, n);
    const float dt = rng.uniform(0.01f, 0.5f);
    CpuBackend cpu(n, Layout::SoA, 2, Precision::Fp64);
    cpu.upload(state);
    std::vector<float> cpu_pack(static_cast<std::size_t>(n) * 4);
    cpu.pack(PackVariant::Vector, cpu_pack.data(), MemorySpace::Host);
    SimParams drift_only;
    drift_only.attractors.count = 0;
    drift_only.dt = dt;
    cpu.set_force_method(ForceMethod::Attractors);  // no attractors: the kick adds exactly 0
    cpu.step(drift_only, 0.0);
    const std::vector<ParticleF64> cpu_drift = cpu.download_f64();
    for (Layout layout : kAllLayouts) {
      CudaBackend gpu(n, layout, 0, Precision::Fp64);
      gpu.upload(state);
      EXPECT_TRUE(testing::bitwise_equal(gpu.download_f64(), state)) << "upload/download " << to_string(layout);
      for (Layout to : kAllLayouts) {
        gpu.set_layout(to);
        EXPECT_TRUE(testing::bitwise_equal(gpu.download_f64(), state)) << "convert to " << to_string(to);
      }
      gpu.set_layout(layout);
      for (PackVariant variant : kAllPackVariants) {
        std::vector<float> got(static_cast<std::size_t>(n) * 4);
        gpu.pack(variant, got.data(), MemorySpace::Host);
        EXPECT_EQ(got, cpu_pack) << to_string(variant) << " " << to_string(layout) << " N=" << n;
      }
      gpu.drift(dt);
      EXPECT_TRUE(testing::bitwise_equal(gpu.download_f64(), cpu_drift)) << "drift " << to_string(layout);
    }
  }
}

TEST(CudaFp64, PrecisionSwitchOnTheDeviceIsExactAndCountsRounding) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = rng.uniform_int(1, 100000);
  const std::vector<Particle> narrow = testing::random_particles(rng, n);
  CudaBackend gpu(n, testing::random_layout(rng));
  gpu.upload(narrow);
  EXPECT_EQ(gpu.set_precision(Precision::Fp64), 0u);
  gpu.set_layout(testing::random_layout(rng));
  EXPECT_EQ(gpu.set_precision(Precision::Fp32), 0u);
  EXPECT_TRUE(testing::bitwise_equal(gpu.download(), narrow));
  const std::vector<ParticleF64> wide = testing::random_particles_wide(rng, n);
  gpu.set_precision(Precision::Fp64);
  gpu.upload(wide);
  EXPECT_TRUE(testing::bitwise_equal(gpu.download_f64(), wide));
  EXPECT_EQ(gpu.set_precision(Precision::Fp32), count_rounded_to_float(wide));
}

TEST(CudaFp64, ReportsTheFp64FormulaBytesAndPrecision) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = rng.uniform_int(1, 5000);
  for (Layout layout : kAllLayouts) {
    CudaBackend gpu(n, layout, 0, Precision::Fp64);
    gpu.upload(testing::random_particles_wide(rng, n));
    const testing::MethodParams step = random_all_pairs_step(rng);
    gpu.set_force_method(step.method);
    gpu.step(step.params, 0.0);
    gpu.synchronize();
    const std::vector<KernelTiming> timings = gpu.poll_timings();
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[0].precision, Precision::Fp64);
    // The state's bytes plus the partial sums written and read back (tests/kernels/partial_sums_test.cpp).
    EXPECT_GT(timings[0].scratch_bytes, 0.0);
    EXPECT_DOUBLE_EQ(timings[0].bytes - timings[0].scratch_bytes,
                     bytes_moved(KernelKind::Forces, layout, step.method, n, Precision::Fp64));
    EXPECT_DOUBLE_EQ(timings[1].bytes,
                     bytes_moved(KernelKind::Integrate, layout, step.method, n, Precision::Fp64));
  }
}

}  // namespace
}  // namespace coalesce
