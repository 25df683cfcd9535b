// States from the edges of the accepted input range (sim/limits.h) for the tests that hold every loop to the
// scalar one there: positions of every magnitude up to the precision's position range, masses from 0 and
// subnormals up to 1e12, softening across its range, and pairs far enough apart that |d|^2 overflows.
#pragma once

#include <cfloat>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/limits.h"
#include "sim/particle.h"
#include "tests/support/test_random.h"
#include "tests/support/typed_value.h"

namespace coalesce::testing {

template <class Real>
const DoubleRange& position_range() {
  return sizeof(Real) == sizeof(float) ? kPositionRangeFp32 : kPositionRangeFp64;
}

// The smallest distance whose square overflows Real: beyond it the pair's r^2 is infinite.
template <class Real>
double overflow_distance() {
  return std::sqrt(static_cast<double>(std::numeric_limits<Real>::max()));
}

// n bodies: positions of random sign and magnitude 10^-3 .. the position range's edge (some exactly 0),
// velocities up to 10^3 (overflow of v + a dt is not what is tested), masses 0, subnormal or up to 1e12.
template <class Real>
std::vector<ParticleRecord<Real>> edge_state(TestRng& rng, int n) {
  const double top = std::log10(position_range<Real>().hi);
  const double smallest_mass = std::log10(static_cast<double>(std::numeric_limits<Real>::denorm_min())) + 1;
  std::vector<ParticleRecord<Real>> out(static_cast<std::size_t>(n));
  for (auto& p : out) {
    Real* position = &p.x;
    for (int k = 0; k < 3; ++k)
      position[k] = rng.uniform_int(0, 9) == 0
                        ? Real(0)
                        : static_cast<Real>(random_sign(rng) * log_uniform(rng, -3, top));
    Real* velocity = &p.vx;
    for (int k = 0; k < 3; ++k) velocity[k] = static_cast<Real>(random_sign(rng) * log_uniform(rng, -6, 3));
    p.mass = rng.uniform_int(0, 9) == 0 ? Real(0) : static_cast<Real>(log_uniform(rng, smallest_mass, 12));
  }
  return out;
}

// Two bodies at -x and +x on a random axis, x beyond the distance whose square overflows (up to the position
// range's edge), or for fp64 also beyond float's (where a float-only seed gave 0), at rest.
template <class Real>
std::vector<ParticleRecord<Real>> far_pair(TestRng& rng) {
  const double top = std::log10(position_range<Real>().hi);
  const double overflow = std::log10(overflow_distance<Real>() / 2);
  const double from =
      sizeof(Real) == sizeof(double) && rng.uniform_int(0, 1) ? std::log10(FLT_MAX) / 2 - 1 : overflow;
  const double x = log_uniform(rng, from, top);
  const int axis = rng.uniform_int(0, 2);
  std::vector<ParticleRecord<Real>> out(2, ParticleRecord<Real>{0, 0, 0, 0, 0, 0, 0});
  (&out[0].x)[axis] = static_cast<Real>(-x);
  (&out[1].x)[axis] = static_cast<Real>(x);
  for (auto& p : out) p.mass = static_cast<Real>(log_uniform(rng, -3, 12));
  return out;
}

}  // namespace coalesce::testing
