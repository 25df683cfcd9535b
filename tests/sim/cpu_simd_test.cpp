// Every SIMD target this machine runs, forced one by one, against the scalar reference loops: the force
// scale within its stated ulps of the exact value, whole steps within the summation bound, drift and pack
// bit for bit, and the layouts and thread counts bitwise alike on each target.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "sim/cpu_backend.h"
#include "sim/cpu_simd.h"
#include "sim/physics.h"
#include "tests/support/edge_states.h"
#include "tests/support/step_bound.h"
#include "tests/support/cpu_targets_here.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

using testing::simd_targets_here;

template <class Real>
constexpr Precision kPrecisionOf = sizeof(Real) == sizeof(float) ? Precision::Fp32 : Precision::Fp64;

// Calls check(target, Real{}) for every SIMD target here in fp32 and fp64.
template <class Check>
void for_every_simd_target(Check&& check) {
  for (CpuTarget target : simd_targets_here()) {
    check(target, float{});
    check(target, double{});
  }
}

template <class Real>
std::string name(CpuTarget target) {
  return std::string(to_string(target)) + " " + std::string(to_string(kPrecisionOf<Real>));
}

SimParams all_pairs_params(TestRng& rng) {
  SimParams p;
  p.dt = rng.uniform(1e-4f, 2e-3f);
  p.softening = rng.uniform(0.01f, 0.2f);
  return p;
}

SimParams attractor_params(TestRng& rng, int count) {
  SimParams p;
  p.dt = rng.uniform(1e-4f, 2e-3f);
  p.softening = rng.uniform(0.01f, 0.2f);
  p.attractors.count = count;
  for (int k = 0; k < count; ++k)
    p.attractors.items[k] = {{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-0.2f, 0.2f)},
                             rng.uniform(0.1f, 1.0f), rng.uniform(0.0f, 1.5f), rng.uniform(-2, 2),
                             rng.uniform(0, 6.28f)};
  return p;
}

// The state after `steps` steps, widened to double (exact in either precision).
template <class Real>
std::vector<ParticleF64> step_once(const std::vector<ParticleRecord<Real>>& start, Layout layout,
                                   CpuTarget target, ForceMethod method, const SimParams& params,
                                   int threads = 2, int steps = 1) {
  CpuBackend backend(static_cast<int>(start.size()), layout, threads, kPrecisionOf<Real>, target);
  backend.upload(start);
  backend.set_force_method(method);
  for (int s = 0; s < steps; ++s) backend.step(params, s * static_cast<double>(params.dt));
  return backend.download_f64();
}

template <class Real>
std::vector<ParticleRecord<Real>> random_state(TestRng& rng, int n) {
  const std::vector<Particle> narrow = testing::random_particles(rng, n);
  if constexpr (sizeof(Real) == sizeof(float))
    return narrow;
  else
    return testing::random_particles_wide(rng, n);
}

// The force scale: one source, so each target's acceleration is d x m / r^3 with no sum. Held to 6 ulps of
// |a| against long double from the same inputs (the rounded differences, the seed's series and the
// products; docs/kernels.md states the bound), in the near loop and, with the sources' reach declared
// beyond kSimdNearReach, in the far one.
template <class Real>
void check_single_pair_scale(TestRng& rng, CpuTarget target, bool far) {
  const SimdKernelsT<Real>& kernels = simd_kernels_for<Real>(*simd_kernels(target));
  constexpr double kUlps = 6.0;
  alignas(64) Real tx[kSimdBlock], ty[kSimdBlock], tz[kSimdBlock], ax[kSimdBlock], ay[kSimdBlock], az[kSimdBlock];
  double worst = 0;
  for (int trial = 0; trial < 200; ++trial) {
    for (int i = 0; i < kSimdBlock; ++i) {
      tx[i] = rng.uniform(-4, 4);
      ty[i] = rng.uniform(-4, 4);
      tz[i] = rng.uniform(-4, 4);
    }
    const Real sx = rng.uniform(-4, 4), sy = rng.uniform(-4, 4), sz = rng.uniform(-4, 4);
    const Real sm = rng.uniform(1e-3f, 10.0f);
    const Real eps = rng.uniform(1e-3f, 0.5f), eps2 = eps * eps;
    const Real reach =
        far ? Real(2 * kSimdNearReach) : std::max({std::fabs(sx), std::fabs(sy), std::fabs(sz)});
    kernels.block_accelerations(tx, ty, tz, kSimdBlock, {&sx, &sy, &sz, &sm, 1, reach}, eps2, ax, ay, az);
    for (int i = 0; i < kSimdBlock; ++i) {
      const long double dx = (long double)sx - tx[i], dy = (long double)sy - ty[i], dz = (long double)sz - tz[i];
      const long double r2 = (long double)eps2 + dx * dx + dy * dy + dz * dz;
      const long double s = sm / (r2 * std::sqrt(r2));
      const long double norm = s * std::sqrt(dx * dx + dy * dy + dz * dz);
      const long double ulp = norm * std::numeric_limits<Real>::epsilon();
      for (const auto& [got, want] : {std::pair{ax[i], dx * s}, std::pair{ay[i], dy * s}, std::pair{az[i], dz * s}})
        worst = std::max(worst, static_cast<double>(std::fabs(got - want) / ulp));
    }
  }
  EXPECT_LE(worst, kUlps) << name<Real>(target) << (far ? " far" : " near") << ": worst error in ulps of |a|";
}

TEST(CpuSimd, ForceScaleIsWithinSixUlpsOfExactOnEveryTarget) {
  COALESCE_REQUIRE_SIMD();
  TestRng rng;
  for (const bool far : {false, true})
    for_every_simd_target(
        [&](CpuTarget target, auto real) { check_single_pair_scale<decltype(real)>(rng, target, far); });
}

// Each velocity of `got` within tests/support/step_bound.h's bound of `reference`'s, both one step from
// `state` pulled by `sources`: the same terms in the same order, each within 6 + 3 ulps (the scale; the
// reference's sqrt, divide and products). Positions drift with each one's own velocity: equal wherever the
// velocities are. Returns the failures, at most three reported.
template <class Real>
int count_outside_bound(const std::vector<ParticleRecord<Real>>& state, const std::vector<ParticleF64>& got,
                        const std::vector<ParticleF64>& reference,
                        const std::vector<std::array<long double, 4>>& sources, const SimParams& params,
                        const std::string& where) {
  const long double eps2 = softening_squared<Real>(params), dt = time_step<Real>(params);
  int bad = 0;
  for (std::size_t i = 0; i < state.size(); ++i) {
    const auto& a = got[i];
    const auto& b = reference[i];
    const long double target[3] = {state[i].x, state[i].y, state[i].z}, v[3] = {b.vx, b.vy, b.vz};
    const long double bound = testing::velocity_bound<Real>(target, v, sources, eps2, dt, 9,
                                                            testing::gradual_underflow_unit<Real>());
    for (const auto& [x, y] : {std::pair{a.vx, b.vx}, std::pair{a.vy, b.vy}, std::pair{a.vz, b.vz}}) {
      if (!(std::fabs((long double)x - y) <= bound) && ++bad <= 3)  // NaN fails too
        ADD_FAILURE() << where << " n=" << state.size() << " i=" << i << ": " << x << " vs " << y
                      << ", bound " << static_cast<double>(bound);
    }
    if (a.vx == b.vx && a.vy == b.vy && a.vz == b.vz) {
      EXPECT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << where << " i=" << i;
    }
    EXPECT_EQ(a.mass, b.mass);
  }
  return bad;
}

// One all-pairs step on each target against the scalar loop.
template <class Real>
void check_all_pairs_step(TestRng& rng, CpuTarget target) {
  const int n = rng.uniform_int(1, 700);  // tails of every width
  const auto state = random_state<Real>(rng, n);
  const SimParams params = all_pairs_params(rng);
  const Layout layout = testing::random_layout(rng);
  const auto simd = step_once(state, layout, target, ForceMethod::OneSidedAllPairs, params);
  const auto reference = step_once(state, layout, CpuTarget::Scalar, ForceMethod::OneSidedAllPairs, params);
  count_outside_bound(state, simd, reference, testing::sources_of(state), params, name<Real>(target));
}

TEST(CpuSimd, AllPairsStepsMatchTheScalarReferenceOnEveryTarget) {
  COALESCE_REQUIRE_SIMD();
  TestRng rng;
  for_every_simd_target([&](CpuTarget target, auto real) { check_all_pairs_step<decltype(real)>(rng, target); });
}

// Attractors: at most 16 terms, so the summation part of the bound is small.
template <class Real>
void check_attractor_step(TestRng& rng, CpuTarget target) {
  const int n = rng.uniform_int(1, 3000);
  const auto state = random_state<Real>(rng, n);
  const SimParams params = attractor_params(rng, rng.uniform_int(1, kMaxAttractors));
  const Layout layout = testing::random_layout(rng);
  const auto simd = step_once(state, layout, target, ForceMethod::Attractors, params, 2, 3);
  const auto reference = step_once(state, layout, CpuTarget::Scalar, ForceMethod::Attractors, params, 2, 3);
  const long double eps = std::numeric_limits<Real>::epsilon();
  long double total_mass = 0;
  for (int k = 0; k < params.attractors.count; ++k) total_mass += params.attractors.items[k].mass;
  const long double eps2 = softening_squared<Real>(params);
  // |m d / r^3| <= m / (2 sqrt(3) / 9 ... ) is at most m x 0.385 / eps^2: a bound on each term.
  const long double per_step = (9 + 2.0L * params.attractors.count) * eps * total_mass * 0.385L / eps2 * params.dt;
  for (int i = 0; i < n; ++i) {
    const auto& a = simd[static_cast<std::size_t>(i)];
    const auto& b = reference[static_cast<std::size_t>(i)];
    const long double v = std::fabs((long double)b.vx) + std::fabs((long double)b.vy) + std::fabs((long double)b.vz);
    const long double bound = 3 * (per_step + 2 * eps * v);
    ASSERT_LE(std::fabs((long double)a.vx - b.vx), bound) << name<Real>(target) << " i=" << i;
    ASSERT_LE(std::fabs((long double)a.vy - b.vy), bound) << name<Real>(target) << " i=" << i;
    ASSERT_LE(std::fabs((long double)a.vz - b.vz), bound) << name<Real>(target) << " i=" << i;
  }
}

TEST(CpuSimd, AttractorStepsMatchTheScalarReferenceOnEveryTarget) {
  COALESCE_REQUIRE_SIMD();
  TestRng rng;
  for_every_simd_target([&](CpuTarget target, auto real) { check_attractor_step<decltype(real)>(rng, target); });
}

// No attractors: the kick adds exactly 0, so one step is the drift alone, and it must be the scalar
// drift's bits; pack then reads what drift wrote, and must be the scalar pack's bits in every layout.
template <class Real>
void check_drift_and_pack(TestRng& rng, CpuTarget target) {
  constexpr Precision precision = kPrecisionOf<Real>;
  const int n = rng.uniform_int(1, 5000);
  const auto state = random_state<Real>(rng, n);
  const SimParams params = attractor_params(rng, 0);
  for (Layout layout : kAllLayouts) {
    CpuBackend simd(n, layout, 2, precision, target), reference(n, layout, 2, precision, CpuTarget::Scalar);
    std::vector<float> simd_out(4 * static_cast<std::size_t>(n)), reference_out(simd_out.size());
    for (CpuBackend* b : {&simd, &reference}) {
      b->upload(state);
      b->set_force_method(ForceMethod::Attractors);
      b->step(params, 0.0);
    }
    simd.pack(PackVariant::Vector, simd_out.data(), MemorySpace::Host);
    reference.pack(PackVariant::Vector, reference_out.data(), MemorySpace::Host);
    const std::string where = name<Real>(target) + " " + std::string(to_string(layout));
    EXPECT_TRUE(testing::bitwise_equal(simd.download_f64(), reference.download_f64())) << where;
    EXPECT_EQ(std::memcmp(simd_out.data(), reference_out.data(), simd_out.size() * sizeof(float)), 0) << where;
  }
}

TEST(CpuSimd, DriftAndPackAreBitwiseTheScalarLoopsOnEveryTarget) {
  COALESCE_REQUIRE_SIMD();
  TestRng rng;
  for_every_simd_target([&](CpuTarget target, auto real) { check_drift_and_pack<decltype(real)>(rng, target); });
}

// Within one target every layout is staged into the same rows and split into the same blocks, so layouts
// and thread counts step bit for bit alike, as on the scalar loop.
template <class Real>
void check_layouts_and_threads_agree(TestRng& rng, CpuTarget target) {
  const int n = rng.uniform_int(1, 600);
  const auto state = random_state<Real>(rng, n);
  const bool pairs = rng.uniform_int(0, 1) == 0;
  const ForceMethod method = pairs ? ForceMethod::OneSidedAllPairs : ForceMethod::Attractors;
  const SimParams params = pairs ? all_pairs_params(rng) : attractor_params(rng, 5);
  const auto reference = step_once(state, Layout::AoS, target, method, params, 2, 3);
  for (Layout layout : kAllLayouts)
    for (int threads : {1, 3})
      EXPECT_TRUE(
          testing::bitwise_equal(step_once(state, layout, target, method, params, threads, 3), reference))
          << name<Real>(target) << " " << to_string(layout) << ", " << threads << " threads";
}

TEST(CpuSimd, LayoutsAndThreadCountsStepBitwiseAlikeOnEveryTarget) {
  COALESCE_REQUIRE_SIMD();
  TestRng rng;
  for_every_simd_target(
      [&](CpuTarget target, auto real) { check_layouts_and_threads_agree<decltype(real)>(rng, target); });
}

// The whole accepted input range (sim/limits.h): positions up to the precision's position range, pairs whose
// |d|^2 overflows, masses from 0 and subnormals to 1e12, softening and dt across theirs. Every target stays
// within the bound of the scalar loop, which now includes what underflow may add, and never turns a finite
// state into NaN (the refinement once computed 1 - r^2 y^2 as inf x 0 there).
template <class Real>
void check_edge_step(TestRng& rng, CpuTarget target) {
  const bool pair = rng.uniform_int(0, 1) == 0;
  const auto state =
      pair ? testing::far_pair<Real>(rng) : testing::edge_state<Real>(rng, rng.uniform_int(1, 200));
  SimParams params;
  ForceMethod method = ForceMethod::OneSidedAllPairs;
  params.softening = testing::log_uniform(rng, -6, 3);
  params.dt = testing::log_uniform(rng, -9, 3);
  std::vector<std::array<long double, 4>> sources = testing::sources_of(state);
  if (!pair && rng.uniform_int(0, 1) == 0) {  // attractors: at most 16 sources, the bodies far from them
    const double softening = params.softening, dt = params.dt;
    params = attractor_params(rng, rng.uniform_int(1, kMaxAttractors));
    method = ForceMethod::Attractors;
    params.softening = softening;
    params.dt = dt;
    for (int k = 0; k < params.attractors.count; ++k)
      params.attractors.items[k].mass = testing::log_uniform(rng, -3, 12);
    const auto snapshot = snapshot_attractors(params.attractors, Real(0));
    sources.clear();
    for (int k = 0; k < snapshot.count; ++k)
      sources.push_back(
          {snapshot.position[k].x, snapshot.position[k].y, snapshot.position[k].z, snapshot.mass[k]});
  }
  const Layout layout = testing::random_layout(rng);
  const auto simd = step_once(state, layout, target, method, params);
  const auto reference = step_once(state, layout, CpuTarget::Scalar, method, params);
  for (const auto& p : reference)
    ASSERT_TRUE(std::isfinite(p.vx) && std::isfinite(p.vy) && std::isfinite(p.vz))
        << "the scalar loop's own step";
  const std::string where =
      name<Real>(target) + " " + std::string(method_info(method).name) + (pair ? " far pair" : " edge state");
  count_outside_bound(state, simd, reference, sources, params, where);
}

TEST(CpuSimd, EdgesOfTheInputRangeStayWithinTheScalarBoundOnEveryTarget) {
  COALESCE_REQUIRE_SIMD();
  TestRng rng;
  for (int round = 0; round < 20; ++round)
    for_every_simd_target([&](CpuTarget target, auto real) { check_edge_step<decltype(real)>(rng, target); });
}

TEST(CpuSimd, TheBestTargetIsTheWidestSupportedAndTheScalarLoopRunsEverywhere) {
  EXPECT_TRUE(cpu_target_supported(CpuTarget::Scalar));
  EXPECT_EQ(simd_kernels(CpuTarget::Scalar), nullptr);
  const CpuTarget best = best_cpu_target();
  for (const CpuTargetInfo& row : kCpuTargetTable) {
    if (row.target == best) break;
    EXPECT_FALSE(cpu_target_supported(row.target)) << row.name << " is supported and wider than " << to_string(best);
  }
  for (const CpuTargetInfo& row : kCpuTargetTable) {
    if (cpu_target_supported(row.target)) continue;
    EXPECT_THROW(CpuBackend(16, Layout::SoA, 1, Precision::Fp32, row.target), std::invalid_argument) << row.name;
  }
  EXPECT_EQ(CpuBackend(16, Layout::SoA, 1).target(), best);
}

}  // namespace
}  // namespace coalesce
