// GPU diagnostics (kernels/diagnostics.cu) against compute_diagnostics, every layout, both solvers, odd N.
//
// Tolerance 1e-10 relative. Both sides widen the same floats to double and round every term (pair,
// attractor, kinetic) the same way: the kernels use explicit _rn operations (no FMA contraction) and IEEE
// sqrt and division, so each per-particle term, and each all-pairs row (j ascending on both), matches the
// CPU's bit for bit. Only the order of the final sums differs: trees on the GPU, a sequential sum on the
// CPU, whose rounding errors behave like a random walk, ~sqrt(n) 2^-53 ~ 5e-13 relative for the 1.6e7
// attractor terms of the largest case. Kinetic and potential terms each have one sign (masses > 0), so no
// cancellation amplifies that, and 1e-10 leaves a wide margin while still catching one missing or doubled
// term (one pair of N = 4099 is ~1e-7 of the sum, one particle of N = 1,000,003 ~1e-6). The total K + U can
// cancel, so it is held against |K| + |U|; momentum components cancel too, so they are held against
// sum m |v| (each term m v is exact in double), and angular momentum components against the sum of the
// magnitudes of their terms, sum m (|y vz| + |z vy|) for x (each term is rounded as on the CPU, so again only
// the order of the sum differs).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/cuda_backend.h"
#include "sim/diagnostics.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

constexpr double kTolerance = 1e-10;

// The scale momentum errors are measured against: sum over particles and components of m |v_c|.
double momentum_scale(const std::vector<Particle>& state) {
  double sum = 0;
  for (const Particle& p : state)
    sum += static_cast<double>(p.mass) * (std::abs(p.vx) + std::abs(p.vy) + std::abs(p.vz));
  return sum;
}

// The scale angular momentum errors are measured against: per component, the sum of its terms' magnitudes.
template <class Real>
Vec3d angular_momentum_scale(const std::vector<ParticleRecord<Real>>& state) {
  Vec3d sum{0, 0, 0};
  for (const auto& p : state) {
    const double m = p.mass, x = p.x, y = p.y, z = p.z, vx = p.vx, vy = p.vy, vz = p.vz;
    sum.x += m * (std::abs(y * vz) + std::abs(z * vy));
    sum.y += m * (std::abs(z * vx) + std::abs(x * vz));
    sum.z += m * (std::abs(x * vy) + std::abs(y * vx));
  }
  return sum;
}

// `potential_tolerance` is separate: only the orbiting-attractor comparison loosens it.
void expect_close(const Diagnostics& got, const Diagnostics& expected, const std::vector<Particle>& state,
                  double potential_tolerance, const std::string& what) {
  const double momentum = kTolerance * momentum_scale(state);
  EXPECT_NEAR(got.kinetic_energy, expected.kinetic_energy, kTolerance * std::abs(expected.kinetic_energy))
      << what;
  EXPECT_NEAR(got.potential_energy, expected.potential_energy,
              potential_tolerance * std::abs(expected.potential_energy))
      << what;
  EXPECT_NEAR(got.total_energy, expected.total_energy,
              potential_tolerance * (std::abs(expected.kinetic_energy) + std::abs(expected.potential_energy)))
      << what;
  EXPECT_NEAR(got.momentum.x, expected.momentum.x, momentum) << what;
  EXPECT_NEAR(got.momentum.y, expected.momentum.y, momentum) << what;
  EXPECT_NEAR(got.momentum.z, expected.momentum.z, momentum) << what;
  const Vec3d angular = angular_momentum_scale(state);
  EXPECT_NEAR(got.angular_momentum.x, expected.angular_momentum.x, kTolerance * angular.x) << what;
  EXPECT_NEAR(got.angular_momentum.y, expected.angular_momentum.y, kTolerance * angular.y) << what;
  EXPECT_NEAR(got.angular_momentum.z, expected.angular_momentum.z, kTolerance * angular.z) << what;
}

void expect_identical(const Diagnostics& got, const Diagnostics& expected, const std::string& what) {
  EXPECT_EQ(got.kinetic_energy, expected.kinetic_energy) << what;
  EXPECT_EQ(got.potential_energy, expected.potential_energy) << what;
  EXPECT_EQ(got.total_energy, expected.total_energy) << what;
  EXPECT_EQ(got.momentum.x, expected.momentum.x) << what;
  EXPECT_EQ(got.momentum.y, expected.momentum.y) << what;
  EXPECT_EQ(got.momentum.z, expected.momentum.z) << what;
  EXPECT_EQ(got.angular_momentum.x, expected.angular_momentum.x) << what;
  EXPECT_EQ(got.angular_momentum.y, expected.angular_momentum.y) << what;
  EXPECT_EQ(got.angular_momentum.z, expected.angular_momentum.z) << what;
}

testing::MethodParams all_pairs_params(TestRng& rng) {
  SimParams params;
  params.softening = rng.uniform(0.02f, 0.1f);
  return {ForceMethod::OneSidedAllPairs, params};
}

// Orbiting (orbit_radius > 0) or fixed attractors, 1 to 16 of them.
testing::MethodParams attractor_params(TestRng& rng, bool orbiting) {
  SimParams params;
  params.softening = rng.uniform(0.02f, 0.1f);
  params.attractors.count = rng.uniform_int(1, kMaxAttractors);
  for (int k = 0; k < params.attractors.count; ++k)
    params.attractors.items[k] = {{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-0.2f, 0.2f)},
                                  rng.uniform(0.1f, 2.0f),
                                  orbiting ? rng.uniform(0.1f, 1.0f) : 0.0f,
                                  rng.uniform(-2.0f, 2.0f),
                                  rng.uniform(0.0f, 6.28f)};
  return {ForceMethod::Attractors, params};
}

// compute_diagnostics of `state` under `step`'s method's physics: what the GPU is held to.
Diagnostics cpu_diagnostics(const std::vector<Particle>& state, const testing::MethodParams& step,
                            double time) {
  return compute_diagnostics(state, method_info(step.method).physics, step.params, time);
}

// GPU diagnostics of `state` in every layout against `expected`; the layouts must agree bitwise (the terms
// and the reduction order do not depend on the layout), a second call must repeat the first bit for bit,
// and the state must be left untouched.
void expect_gpu_matches(const std::vector<Particle>& state, const testing::MethodParams& step, double time,
                        const Diagnostics& expected, double potential_tolerance) {
  const int n = static_cast<int>(state.size());
  Diagnostics first{};
  for (Layout layout : kAllLayouts) {
    const std::string what = std::string(method_info(step.method).name) + " N=" + std::to_string(n) + " " +
                             std::string(to_string(layout));
    CudaBackend gpu(n, layout);
    gpu.upload(state);
    gpu.set_force_method(step.method);
    const Diagnostics got = gpu.diagnostics(step.params, time);
    expect_close(got, expected, state, potential_tolerance, what);
    expect_identical(gpu.diagnostics(step.params, time), got, what + " (second call)");
    if (layout == kAllLayouts[0]) {
      first = got;
    } else {
      expect_identical(got, first, what + " against " + std::string(to_string(kAllLayouts[0])));
    }
    EXPECT_TRUE(testing::bitwise_equal(gpu.download(), state)) << what << ": diagnostics changed the state";
  }
}

TEST(CudaDiagnostics, AllPairsMatchesTheCpu) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  // Around the 256-row block and tile edges (a lone row, partial diagonal tiles, several blocks); the CPU
  // reference is O(N^2), so the largest N is a few thousand.
  for (int n : {1, 2, 31, 33, 255, 256, 257, 513, testing::size_or_quick(4099, 300)}) {
    const std::vector<Particle> state = testing::random_particles(rng, n);
    const testing::MethodParams step = all_pairs_params(rng);
    expect_gpu_matches(state, step, 0.0, cpu_diagnostics(state, step, 0.0), kTolerance);
  }
}

TEST(CudaDiagnostics, FixedAttractorsMatchTheCpu) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  // N = 1,000,003 spans the 1024-block grid-stride cap several times over.
  for (int n : testing::odd_sizes()) {
    const std::vector<Particle> state = testing::random_particles(rng, n);
    const testing::MethodParams step = attractor_params(rng, false);
    const double time = rng.uniform(0.0f, 10.0f);
    expect_gpu_matches(state, step, time, cpu_diagnostics(state, step, time), kTolerance);
  }
}

// Orbiting attractors: both backends place them with the step's own float snapshot (sim/physics.h), so
// the GPU matches compute_diagnostics to the same tolerance as fixed ones.
TEST(CudaDiagnostics, OrbitingAttractorsUseTheStepSnapshot) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : testing::odd_sizes()) {
    const std::vector<Particle> state = testing::random_particles(rng, n);
    const testing::MethodParams step = attractor_params(rng, true);
    const double time = rng.uniform(0.0f, 2.0f);
    expect_gpu_matches(state, step, time, cpu_diagnostics(state, step, time), kTolerance);
  }
}

// Angular momentum in each precision and through each entry point the backend uses: all-pairs, attractors
// and the tree's motion-only diagnostics (its potential is its own, so only the motion terms are compared).
TEST(CudaDiagnostics, AngularMomentumMatchesTheCpuInEveryPrecisionAndMethod) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (Precision precision : kAllPrecisions) {
    for (ForceMethod method : {ForceMethod::OneSidedAllPairs, ForceMethod::Attractors, ForceMethod::Tree}) {
      const int n = rng.uniform_int(1, 3000);
      const std::string what = std::string(method_info(method).name) + " " +
                               std::string(to_string(precision)) + " N=" + std::to_string(n);
      const testing::MethodParams step = method == ForceMethod::Attractors
                                             ? attractor_params(rng, true)
                                             : testing::MethodParams{method, all_pairs_params(rng).params};
      CudaBackend gpu(n, testing::random_layout(rng), 0, precision);
      const auto check = [&](const auto& state) {
        gpu.upload(state);
        gpu.set_force_method(step.method);
        const Vec3d got = gpu.diagnostics(step.params, 0.0).angular_momentum;
        const Vec3d expected = motion_diagnostics(state).angular_momentum;
        const Vec3d scale = angular_momentum_scale(state);
        EXPECT_NEAR(got.x, expected.x, kTolerance * scale.x) << what;
        EXPECT_NEAR(got.y, expected.y, kTolerance * scale.y) << what;
        EXPECT_NEAR(got.z, expected.z, kTolerance * scale.z) << what;
      };
      if (precision == Precision::Fp64) {
        check(testing::random_particles_wide(rng, n));
      } else {
        check(testing::random_particles(rng, n));
      }
    }
  }
}

TEST(CudaDiagnostics, AffordableUpToAMillionAllPairsAndAnyNWithAttractors) {
  COALESCE_REQUIRE_CUDA();
  CudaBackend gpu(33, Layout::SoA);
  // The limit is the method's physics': both all-pairs methods have the pair potential's.
  for (ForceMethod method : {ForceMethod::OneSidedAllPairs, ForceMethod::MutualAllPairs}) {
    gpu.set_force_method(method);
    EXPECT_EQ(gpu.max_diagnostics_particles(), 1 << 20) << method_info(method).name;
    EXPECT_TRUE(gpu.diagnostics_affordable()) << method_info(method).name;
  }
  gpu.set_force_method(ForceMethod::Attractors);
  EXPECT_EQ(gpu.max_diagnostics_particles(), std::numeric_limits<int>::max());
  EXPECT_TRUE(gpu.diagnostics_affordable());
}

}  // namespace
}  // namespace coalesce
