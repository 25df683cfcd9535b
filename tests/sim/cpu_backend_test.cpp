// CpuBackend: bitwise layout conversion, layout- and thread-independent steps, pack, attractors, timings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "sim/byte_counts.h"
#include "sim/cpu_backend.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

SimParams all_pairs_params() {
  SimParams p;
  p.dt = 1e-3f;
  p.softening = 0.05f;
  return p;
}

SimParams attractor_params(TestRng& rng) {
  SimParams p;
  p.dt = 2e-3f;
  p.softening = 0.1f;
  p.attractors.count = rng.uniform_int(1, kMaxAttractors);
  for (int k = 0; k < p.attractors.count; ++k) {
    const bool fixed = rng.uniform_int(0, 1) == 0;
    p.attractors.items[k] = {{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-0.2f, 0.2f)},
                             rng.uniform(0.1f, 1.0f),
                             fixed ? 0.0f : rng.uniform(0.2f, 1.5f),
                             rng.uniform(-2, 2),
                             rng.uniform(0, 6.28f)};
  }
  return p;
}

std::vector<Particle> run(const std::vector<Particle>& start, Layout layout, ForceMethod method,
                          const SimParams& params, int steps, int threads = 2) {
  CpuBackend backend(static_cast<int>(start.size()), layout, threads);
  backend.upload(start);
  backend.set_force_method(method);
  for (int s = 0; s < steps; ++s) backend.step(params, s * static_cast<double>(params.dt));
  return backend.download();
}

TEST(CpuBackend, ConversionRoundTripsAreBitwiseAcrossAllLayoutPairs) {
  TestRng rng;
  const auto state = testing::random_particles(rng, rng.uniform_int(1, 3000));
  for (Layout from : kAllLayouts) {
    for (Layout to : kAllLayouts) {
      CpuBackend backend(static_cast<int>(state.size()), from, 2);
      backend.upload(state);
      EXPECT_TRUE(testing::bitwise_equal(backend.download(), state)) << to_string(from);
      backend.set_layout(to);
      EXPECT_EQ(backend.layout(), to);
      EXPECT_TRUE(testing::bitwise_equal(backend.download(), state))
          << to_string(from) << "->" << to_string(to);
      backend.set_layout(from);
      EXPECT_TRUE(testing::bitwise_equal(backend.download(), state))
          << to_string(from) << "->" << to_string(to) << "->" << to_string(from);
    }
  }
}

// On the CPU every layout runs the same operations in the same order, so steps agree bit for bit
// (the GPU tests use a tolerance instead, since tiling and rsqrtf change the rounding).
TEST(CpuBackend, AllPairsStepsAreBitwiseEqualAcrossLayouts) {
  TestRng rng;
  const auto state = testing::random_particles(rng, rng.uniform_int(50, 400));
  const auto reference = run(state, Layout::AoS, ForceMethod::OneSidedAllPairs, all_pairs_params(), 10);
  EXPECT_FALSE(testing::bitwise_equal(reference, state));
  for (Layout layout : kAllLayouts)
    EXPECT_TRUE(testing::bitwise_equal(
        run(state, layout, ForceMethod::OneSidedAllPairs, all_pairs_params(), 10), reference))
        << to_string(layout);
}

TEST(CpuBackend, AttractorStepsAreBitwiseEqualAcrossLayouts) {
  TestRng rng;
  const SimParams params = attractor_params(rng);
  const auto state = testing::random_particles(rng, rng.uniform_int(100, 5000));
  const auto reference = run(state, Layout::AoS, ForceMethod::Attractors, params, 20);
  for (Layout layout : kAllLayouts)
    EXPECT_TRUE(testing::bitwise_equal(run(state, layout, ForceMethod::Attractors, params, 20), reference))
        << to_string(layout);
}

TEST(CpuBackend, StepsDoNotDependOnThreadCount) {
  TestRng rng;
  const auto state = testing::random_particles(rng, rng.uniform_int(3, 300));
  const Layout layout = testing::random_layout(rng);
  const auto one = run(state, layout, ForceMethod::OneSidedAllPairs, all_pairs_params(), 5, 1);
  for (int threads : {2, 3, 7})
    EXPECT_TRUE(testing::bitwise_equal(
        run(state, layout, ForceMethod::OneSidedAllPairs, all_pairs_params(), 5, threads), one))
        << threads;
  const SimParams attract = attractor_params(rng);
  EXPECT_TRUE(testing::bitwise_equal(run(state, layout, ForceMethod::Attractors, attract, 5, 5),
                                     run(state, layout, ForceMethod::Attractors, attract, 5, 1)));
}

// One attractor step against the same formulas evaluated independently in double precision.
TEST(CpuBackend, AttractorStepMatchesDirectDoubleEvaluation) {
  TestRng rng;
  const SimParams params = attractor_params(rng);
  const auto state = testing::random_particles(rng, 2000);
  const double time = rng.uniform(0, 10);
  CpuBackend backend(static_cast<int>(state.size()), Layout::SoA, 2);
  backend.upload(state);
  backend.set_force_method(ForceMethod::Attractors);
  backend.step(params, time);
  const auto got = backend.download();
  const double dt = params.dt, eps2 = static_cast<double>(params.softening) * params.softening;
  double worst = 0;
  for (std::size_t i = 0; i < state.size(); ++i) {
    const Particle& p = state[i];
    double ax = 0, ay = 0, az = 0;
    for (int k = 0; k < params.attractors.count; ++k) {
      const Attractor& a = params.attractors.items[k];
      const double angle = a.phase + static_cast<double>(a.angular_speed) * time;
      const double cx = a.center.x + (a.orbit_radius != 0 ? a.orbit_radius * std::cos(angle) : 0.0);
      const double cy = a.center.y + (a.orbit_radius != 0 ? a.orbit_radius * std::sin(angle) : 0.0);
      const double dx = cx - p.x, dy = cy - p.y, dz = a.center.z - p.z;
      const double r2 = dx * dx + dy * dy + dz * dz + eps2;
      const double s = a.mass / (r2 * std::sqrt(r2));
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    const double vx = p.vx + ax * dt, vy = p.vy + ay * dt, vz = p.vz + az * dt;
    const double expect[6] = {p.x + vx * dt, p.y + vy * dt, p.z + vz * dt, vx, vy, vz};
    const float actual[6] = {got[i].x, got[i].y, got[i].z, got[i].vx, got[i].vy, got[i].vz};
    for (int f = 0; f < 6; ++f)
      worst = std::max(worst, std::abs(actual[f] - expect[f]) / (1.0 + std::abs(expect[f])));
    EXPECT_EQ(got[i].mass, p.mass);
  }
  // float32 rounding of |x| <~ 2 values plus attractor positions at float time: a few ulps of 1.
  EXPECT_LT(worst, 2e-6);
}

TEST(CpuBackend, PackEqualsDirectComputationForEveryVariant) {
  TestRng rng;
  const auto state = testing::random_particles(rng, rng.uniform_int(1, 5000));
  for (Layout layout : kAllLayouts) {
    CpuBackend backend(static_cast<int>(state.size()), layout, 2);
    backend.upload(state);
    for (PackVariant variant : kAllPackVariants) {
      std::vector<float> out(state.size() * 4, -1.0f);
      backend.pack(variant, out.data(), MemorySpace::Host);
      for (std::size_t i = 0; i < state.size(); ++i) {
        const Particle& p = state[i];
        ASSERT_EQ(out[4 * i + 0], p.x);
        ASSERT_EQ(out[4 * i + 1], p.y);
        ASSERT_EQ(out[4 * i + 2], p.z);
        ASSERT_EQ(out[4 * i + 3], std::sqrt(p.vx * p.vx + p.vy * p.vy + p.vz * p.vz)) << i;
      }
    }
  }
}

TEST(CpuBackend, RejectsDevicePackAndBadSizes) {
  CpuBackend backend(8, Layout::AoS, 1);
  std::vector<float> out(32);
  EXPECT_THROW(backend.pack(PackVariant::Naive, out.data(), MemorySpace::Device), std::invalid_argument);
  EXPECT_THROW(backend.upload(std::vector<Particle>(7)), std::invalid_argument);
  EXPECT_THROW(CpuBackend(0, Layout::SoA), std::invalid_argument);
  EXPECT_THROW(CpuBackend(-3, Layout::SoA), std::invalid_argument);
}

TEST(CpuBackend, ReportsTimingsWithSharedByteCounts) {
  TestRng rng;
  const int n = rng.uniform_int(10, 500);
  CpuBackend backend(n, Layout::Float4, 2);
  backend.upload(testing::random_particles(rng, n));
  backend.step(all_pairs_params(), 0.0);
  std::vector<float> out(static_cast<std::size_t>(n) * 4);
  backend.pack(PackVariant::Vector, out.data(), MemorySpace::Host);
  backend.set_layout(Layout::AoS);
  const auto timings = backend.poll_timings();
  ASSERT_EQ(timings.size(), 4u);
  EXPECT_EQ(timings[0].kernel, KernelKind::Forces);
  // The state's bytes, plus the source rows the SIMD loop stages and reads back
  // (tests/sim/scratch_bytes_test.cpp).
  EXPECT_EQ(timings[0].bytes - timings[0].scratch_bytes, 48.0 * n);
  EXPECT_EQ(timings[0].interactions, static_cast<double>(n) * n);
  for (std::size_t i = 1; i < timings.size(); ++i) EXPECT_EQ(timings[i].scratch_bytes, 0.0);
  EXPECT_EQ(timings[1].kernel, KernelKind::Integrate);
  EXPECT_EQ(timings[1].bytes, 48.0 * n);
  EXPECT_EQ(timings[2].kernel, KernelKind::Pack);
  EXPECT_EQ(timings[2].bytes, 48.0 * n);
  EXPECT_EQ(timings[3].kernel, KernelKind::Convert);
  EXPECT_EQ(timings[3].bytes, (32.0 + 28.0) * n);
  for (const auto& t : timings) EXPECT_GE(t.milliseconds, 0.0);
  EXPECT_TRUE(backend.poll_timings().empty());
  EXPECT_EQ(bytes_moved(KernelKind::Forces, Layout::SoA, ForceMethod::OneSidedAllPairs, n), 40.0 * n);
  EXPECT_EQ(bytes_moved(KernelKind::Forces, Layout::AoS, ForceMethod::Attractors, n), 36.0 * n);
  EXPECT_EQ(bytes_moved(KernelKind::Integrate, Layout::SoA, ForceMethod::Attractors, n), 36.0 * n);
  EXPECT_EQ(bytes_moved(KernelKind::Pack, Layout::AoS, ForceMethod::OneSidedAllPairs, n), 40.0 * n);
  EXPECT_EQ(bytes_moved(KernelKind::Convert, Layout::SoA, ForceMethod::OneSidedAllPairs, n), 56.0 * n);
  EXPECT_EQ(interactions(KernelKind::Forces, ForceMethod::Attractors, n, 5), 5.0 * n);
  EXPECT_EQ(interactions(KernelKind::Pack, ForceMethod::OneSidedAllPairs, n, 0), 0.0);
}

TEST(CpuBackend, DescribesTheMachine) {
  CpuBackend backend(4, Layout::SoA, 2);
  EXPECT_EQ(backend.name(), "cpu (2 threads, " + std::string(cpu_target_info(backend.target()).label) + ")");
  EXPECT_FALSE(backend.device_info().name.empty());
  EXPECT_GT(backend.device_info().multiprocessors, 0);
  EXPECT_GT(backend.device_info().copy_peak_gbps, 0.1);
}

// What the bench and the viewer ask of any backend: a host pack target the pack fills, no stream, no GPU.
TEST(CpuBackend, PackTargetIsHostMemoryThePackFills) {
  testing::TestRng rng;
  const int n = rng.uniform_int(10, 500);
  CpuBackend cpu(n, testing::random_layout(rng), 2);
  cpu.upload(testing::random_particles(rng, n));
  Backend& backend = cpu;
  EXPECT_FALSE(backend.device_info().gpu);
  EXPECT_EQ(backend.interop_stream(), nullptr);
  const std::unique_ptr<PackTarget> target = backend.bench_timing().make_pack_target();
  ASSERT_EQ(target->space(), MemorySpace::Host);
  std::vector<float> expected(static_cast<std::size_t>(n) * kRenderFloatsPerParticle);
  backend.pack(PackVariant::Naive, expected.data(), MemorySpace::Host);
  std::fill(target->data(), target->data() + expected.size(), std::nanf(""));
  backend.pack(backend.preferred_pack_variant(), target->data(), target->space());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(), target->data(),
                         [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }));
}

}  // namespace
}  // namespace coalesce
