// Angular momentum and the virial ratio of compute_diagnostics against plain sums, fp32 and fp64 states.
//
// The references are summed in long double, independently of sim/diagnostics.cpp's double sums. The double
// sum of n terms t_k, each computed with a few roundings, is within (n + 3) 2^-53 sum |t_k| of the exact sum
// (recursive summation bound plus the roundings inside a term); that is the tolerance, so one term missing,
// doubled or with a sign flipped (a wrong cross-product index) fails for all but the smallest terms.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "sim/diagnostics.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

struct Reference {
  long double value[3] = {0, 0, 0};
  long double magnitude[3] = {0, 0, 0};  // sum of |term|: the scale the rounding bound is relative to
};

template <class Real>
Reference angular_momentum_reference(const std::vector<ParticleRecord<Real>>& state) {
  Reference out;
  for (const auto& p : state) {
    const long double m = p.mass, r[3] = {p.x, p.y, p.z}, v[3] = {p.vx, p.vy, p.vz};
    for (int c = 0; c < 3; ++c) {
      const int a = (c + 1) % 3, b = (c + 2) % 3;  // (r x v)_c = r_a v_b - r_b v_a
      const long double term = m * (r[a] * v[b] - r[b] * v[a]);
      out.value[c] += term;
      out.magnitude[c] += m * (std::fabs(r[a] * v[b]) + std::fabs(r[b] * v[a]));
    }
  }
  return out;
}

double summation_bound(std::size_t terms) {
  return (static_cast<double>(terms) + 3.0) * std::ldexp(1.0, -53);
}

template <class Real>
void expect_angular_momentum_matches(const std::vector<ParticleRecord<Real>>& state,
                                     const std::string& what) {
  const Reference expected = angular_momentum_reference(state);
  const double bound = summation_bound(state.size());
  for (const Diagnostics& d :
       {motion_diagnostics(state), compute_diagnostics(state, Physics::PairGravity, SimParams{}, 0.0)}) {
    const double got[3] = {d.angular_momentum.x, d.angular_momentum.y, d.angular_momentum.z};
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(got[c], static_cast<double>(expected.value[c]),
                  bound * static_cast<double>(expected.magnitude[c]))
          << what << " component " << c;
  }
}

TEST(Diagnostics, AngularMomentumIsTheSumOfMRCrossVInBothPrecisions) {
  TestRng rng;
  for (int round = 0; round < 4; ++round) {
    const int n = rng.uniform_int(1, 1500);
    expect_angular_momentum_matches(testing::random_particles(rng, n), "fp32 N=" + std::to_string(n));
    expect_angular_momentum_matches(testing::random_particles_wide(rng, n), "fp64 N=" + std::to_string(n));
  }
}

// A ring spun about z at angular speed w, centred on the origin: L = (0, 0, M r^2 w) exactly in theory, so
// the reference above is not the only witness of the sign and the axis.
TEST(Diagnostics, ASpinningRingHasItsAnalyticAngularMomentum) {
  TestRng rng;
  const int n = rng.uniform_int(3, 2000);
  const double r = rng.uniform(0.1f, 10.0f), w = rng.uniform(-3.0f, 3.0f), m = 1.0 / n;
  std::vector<ParticleF64> ring;
  for (int i = 0; i < n; ++i) {
    const double phi = 6.283185307179586 * i / n;
    ring.push_back(
        {r * std::cos(phi), r * std::sin(phi), 0.0, -w * r * std::sin(phi), w * r * std::cos(phi), 0.0, m});
  }
  const Vec3d l = motion_diagnostics(ring).angular_momentum;
  const double expected = r * r * w;  // M = 1
  EXPECT_NEAR(l.z, expected, 1e-12 * std::abs(expected)) << "N=" << n;
  EXPECT_EQ(l.x, 0.0);
  EXPECT_EQ(l.y, 0.0);
}

// 2K / |W| against a long double pair sum of the same state: both energies have one sign, so the relative
// error of each is at most about (n^2/2 + 4) 2^-53 (the pair terms), 2e-11 for n = 600, below the 1e-10
// asked here; a missing pair or particle is ~1e-5 of the sum at that n.
template <class Real>
void expect_virial_ratio_matches(const std::vector<ParticleRecord<Real>>& state, double softening,
                                 const std::string& what) {
  SimParams params;
  params.softening = softening;
  using Wide = long double;
  const Wide eps2 = Wide(params.softening) * params.softening;
  Wide kinetic = 0, potential = 0;
  for (std::size_t i = 0; i < state.size(); ++i) {
    const auto& a = state[i];
    kinetic += 0.5L * a.mass * (Wide(a.vx) * a.vx + Wide(a.vy) * a.vy + Wide(a.vz) * a.vz);
    for (std::size_t j = i + 1; j < state.size(); ++j) {
      const auto& b = state[j];
      const Wide dx = Wide(b.x) - a.x, dy = Wide(b.y) - a.y, dz = Wide(b.z) - a.z;
      potential -= Wide(a.mass) * b.mass / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
    }
  }
  const std::optional<double> ratio =
      virial_ratio(compute_diagnostics(state, Physics::PairGravity, params, 0.0));
  ASSERT_TRUE(ratio.has_value()) << what;
  const double expected = static_cast<double>(2.0L * kinetic / std::fabs(potential));
  EXPECT_NEAR(*ratio, expected, 1e-10 * expected) << what;
}

TEST(Diagnostics, VirialRatioIsTwiceKineticOverMinusPotential) {
  TestRng rng;
  const int n = rng.uniform_int(2, 600);
  const double softening = rng.uniform(0.01f, 0.2f);
  expect_virial_ratio_matches(testing::random_particles(rng, n), softening, "fp32 N=" + std::to_string(n));
  expect_virial_ratio_matches(testing::random_particles_wide(rng, n), softening,
                              "fp64 N=" + std::to_string(n));
}

// No potential (motion alone, a lone particle, no attractors) is unknown, not a ratio of 0 or infinity.
TEST(Diagnostics, VirialRatioIsUnknownWithoutAPotential) {
  TestRng rng;
  const std::vector<Particle> state = testing::random_particles(rng, rng.uniform_int(2, 100));
  EXPECT_FALSE(virial_ratio(motion_diagnostics(state)).has_value());
  EXPECT_FALSE(virial_ratio(compute_diagnostics(state, Physics::Attractors, SimParams{}, 0.0)).has_value());
  EXPECT_FALSE(
      virial_ratio(compute_diagnostics({state[0]}, Physics::PairGravity, SimParams{}, 0.0)).has_value());
  EXPECT_GT(motion_diagnostics(state).kinetic_energy, 0.0);  // the ratio is unknown though K is not
}

}  // namespace
}  // namespace coalesce
