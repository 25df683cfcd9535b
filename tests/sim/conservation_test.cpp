// Energy, momentum and angular momentum over 1000 steps on the CPU backend (all-pairs).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sim/cpu_backend.h"
#include "sim/diagnostics.h"
#include "sim/scene.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

double norm(const Vec3d& v) {
  return std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
}

// Symplectic Euler has a bounded O(dt) energy error with no secular drift. With the preset's dt = 2e-3 and
// eps = 0.05 (crossing time ~1.5, so 1000 steps is ~1.3 crossings), N = 512 and M = 1, the worst relative
// error over the checkpoints measured 2e-5 .. 1.3e-4 on 24 random spheres (float32 forces, 2 threads).
// The bound 1e-3 leaves ~8x margin for unlucky close encounters in fresh random spheres, and is still tight
// enough that a force off by a few per cent or a missing kick or drift term would exceed it.
constexpr double kEnergyDriftBound = 1e-3;
// Pairwise forces are antisymmetric up to float32 rounding: |p| stayed below 3.2e-8 (mass-weighted speeds
// sum to ~0.5), so 1e-6 is a ~30x margin.
constexpr double kMomentumBound = 1e-6;

TEST(Conservation, PlummerSphereEnergyAndMomentumOver1000Steps) {
  testing::TestRng rng;
  Scene scene = preset_scene("plummer");
  scene.particles = 512;
  scene.seed = rng.engine()();
  const auto start = generate_initial_state(scene);
  const Layout layout = testing::random_layout(rng);
  CpuBackend backend(scene.particles, layout, 2);
  backend.upload(start);

  const Diagnostics initial = compute_diagnostics(start, Physics::PairGravity, scene.params, 0.0);
  ASSERT_LT(initial.total_energy, 0.0);  // bound system
  EXPECT_LT(norm(initial.momentum), kMomentumBound);
  double worst_drift = 0, worst_momentum = 0;
  SimClock clock;
  for (int s = 0; s < 1000; ++s) {
    backend.step(scene.params, clock.time(scene.params.dt));
    ++clock.step;
    if (clock.step % 100 != 0) continue;
    const Diagnostics d = compute_diagnostics(backend.download(), Physics::PairGravity, scene.params,
                                              clock.time(scene.params.dt));
    worst_drift =
        std::max(worst_drift, std::abs((d.total_energy - initial.total_energy) / initial.total_energy));
    worst_momentum = std::max(worst_momentum, norm(d.momentum));
  }
  RecordProperty("energy_drift", std::to_string(worst_drift));
  EXPECT_LT(worst_drift, kEnergyDriftBound) << "layout " << to_string(layout);
  EXPECT_GT(worst_drift, 0.0);  // the state did evolve
  EXPECT_LT(worst_momentum, kMomentumBound) << "layout " << to_string(layout);
}

// Kick then drift with pairwise central forces keeps L = sum m r x v exactly in exact arithmetic: the kick's
// torques cancel in pairs ((r_i - r_j) x F_ij = 0) and the drift moves r along v. Only fp32 rounding of
// the forces, velocities and positions changes |L|, like a random walk of ~2^-24 per particle and step:
// ~sqrt(steps / N) 6e-8 ~ 1e-7 relative. Measured: 1.6e-8 .. 1.4e-7 on 30 random disks (N = 512, 1000 steps,
// 2 threads), so 2e-6 is a ~15x margin.
// A torque that does not cancel (a force that is not central, or not equal and opposite, for some pair) or
// a drift that moves r other than along v would exceed the bound.
constexpr double kAngularMomentumBound = 2e-6;

// A rotating disk, whose |L| is large (the Plummer sphere's is ~0), on a random layout.
TEST(Conservation, RotatingDiskAngularMomentumOver1000Steps) {
  testing::TestRng rng;
  Scene scene = preset_scene("disk");
  scene.particles = 512;
  scene.seed = rng.engine()();
  const auto start = generate_initial_state(scene);
  const Layout layout = testing::random_layout(rng);
  CpuBackend backend(scene.particles, layout, 2);
  backend.upload(start);

  const double initial = norm(motion_diagnostics(start).angular_momentum);
  ASSERT_GT(initial, 0.0);
  double worst = 0;
  SimClock clock;
  for (int s = 0; s < 1000; ++s) {
    backend.step(scene.params, clock.time(scene.params.dt));
    ++clock.step;
    if (clock.step % 100 != 0) continue;
    const double now = norm(backend.diagnostics(scene.params, clock.time(scene.params.dt)).angular_momentum);
    worst = std::max(worst, std::abs(now - initial) / initial);
  }
  RecordProperty("angular_momentum_drift", std::to_string(worst));
  EXPECT_LT(worst, kAngularMomentumBound) << "layout " << to_string(layout);
}

// Plummer initial conditions are in virial equilibrium: 2K + W = 0 within sampling noise.
TEST(Conservation, PlummerSphereStartsInVirialEquilibrium) {
  testing::TestRng rng;
  Scene scene = preset_scene("plummer");
  scene.particles = 2048;
  scene.seed = rng.engine()();
  const Diagnostics d =
      compute_diagnostics(generate_initial_state(scene), Physics::PairGravity, scene.params, 0.0);
  ASSERT_TRUE(virial_ratio(d).has_value());
  EXPECT_NEAR(*virial_ratio(d), 1.0, 0.15);  // sampling noise ~1/sqrt(N) and softening lower |W| slightly
}

TEST(Conservation, DiagnosticsMatchHandComputedTwoBodyValues) {
  SimParams params;
  params.softening = 0.5f;
  const std::vector<Particle> two = {{0, 0, 0, 1, 0, 0, 2}, {3, 4, 0, 0, -1, 0, 1}};
  const Diagnostics d = compute_diagnostics(two, Physics::PairGravity, params, 0.0);
  EXPECT_DOUBLE_EQ(d.kinetic_energy, 0.5 * 2 * 1 + 0.5 * 1 * 1);
  EXPECT_NEAR(d.potential_energy, -2.0 / std::sqrt(25.0 + 0.25), 1e-12);
  EXPECT_DOUBLE_EQ(d.total_energy, d.kinetic_energy + d.potential_energy);
  EXPECT_DOUBLE_EQ(d.momentum.x, 2.0);
  EXPECT_DOUBLE_EQ(d.momentum.y, -1.0);
  params.attractors.count = 1;
  params.attractors.items[0] = {{0, 0, 0}, 4.0f, 1.0f, 0.5f, 0.0f};  // at (cos 1, sin 1, 0) when t = 2
  const Diagnostics a = compute_diagnostics({two[0]}, Physics::Attractors, params, 2.0);
  EXPECT_NEAR(a.potential_energy, -2.0 * 4.0 / std::sqrt(1.0 + 0.25), 1e-6);
}

}  // namespace
}  // namespace coalesce
