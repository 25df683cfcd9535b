// Fresh random inputs for every test run, with the seed printed whenever a test fails so it can be replayed
// (COALESCE_TEST_SEED=... reruns with a given seed).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "sim/layout.h"
#include "sim/particle.h"
#include "sim/precision.h"

namespace coalesce::testing {

// The seed of this test run: COALESCE_TEST_SEED if set, else fresh from std::random_device.
std::uint64_t run_seed();

// A generator for the current test, seeded from run_seed() and the test's name; the seed goes into
// the failure message through a gtest trace, so every failure names it.
class TestRng {
 public:
  TestRng();
  std::uint64_t seed() const { return m_seed; }
  std::mt19937_64& engine() { return m_engine; }
  float uniform(float lo, float hi);
  int uniform_int(int lo, int hi);  // inclusive

 private:
  std::uint64_t m_seed;
  std::mt19937_64 m_engine;
};

// One of every layout of sim/layout.h's table, uniformly.
inline Layout random_layout(TestRng& rng) {
  return kAllLayouts[static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(kLayoutCount) - 1))];
}

// One of every precision of sim/precision.h's table, uniformly.
inline Precision random_precision(TestRng& rng) {
  return kAllPrecisions[static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(kPrecisionCount) - 1))];
}

// One of every pack variant, uniformly.
inline PackVariant random_pack_variant(TestRng& rng) {
  return kAllPackVariants[static_cast<std::size_t>(
      rng.uniform_int(0, static_cast<int>(kAllPackVariants.size()) - 1))];
}

// N particles with positions in [-1, 1]^3, velocities in [-0.5, 0.5]^3 and masses in (0, 1/N].
std::vector<Particle> random_particles(TestRng& rng, int n);

// N double records (positions, velocities and masses as random_particles, but each value a random normal
// float of either sign, magnitude 2^-20 .. 2^21, masses positive), where each value has, with probability
// `inexact_share`, low bits set that no float holds (the others are floats widened, so exact as floats).
// `inexact` receives how many values a float cannot hold.
std::vector<ParticleF64> random_particles_f64(TestRng& rng, int n, double inexact_share, std::size_t& inexact);

// The state of random_particles widened to double, each value then given random low bits no float holds
// (positions, velocities and masses keep their physical ranges; masses stay positive).
std::vector<ParticleF64> random_particles_wide(TestRng& rng, int n);

// Relative error ||a - b|| / ||b|| over all seven fields, in double precision.
double relative_error(const std::vector<Particle>& a, const std::vector<Particle>& b);
double relative_error(const std::vector<ParticleF64>& a, const std::vector<ParticleF64>& b);

// True when the two states are equal bit for bit (NaN payloads included).
bool bitwise_equal(const std::vector<Particle>& a, const std::vector<Particle>& b);
bool bitwise_equal(const std::vector<ParticleF64>& a, const std::vector<ParticleF64>& b);

}  // namespace coalesce::testing
