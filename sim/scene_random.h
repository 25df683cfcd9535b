// Deterministic random numbers for initial conditions: std::mt19937_64 (fully specified by the standard)
// with explicitly coded distributions, since std::*_distribution output differs between libraries.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>

#include "sim/common.h"

namespace coalesce {

class SceneRandom {
 public:
  explicit SceneRandom(std::uint64_t seed) : m_engine(seed) {}

  // Uniform in [0, 1) from the top 53 bits: exact, and the same on every platform.
  double uniform01() { return static_cast<double>(m_engine() >> 11) * (1.0 / 9007199254740992.0); }
  // Uniform in (0, 1]: safe for log().
  double uniform_open0() { return 1.0 - uniform01(); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

  // Standard normal by Box-Muller (the cosine branch only, so one call consumes exactly two draws).
  double normal() {
    const double u1 = uniform_open0();
    const double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  // Uniformly distributed direction on the unit sphere.
  void unit_vector(double& x, double& y, double& z) {
    const double cos_theta = uniform(-1.0, 1.0);
    const double sin_theta = std::sqrt(std::max(0.0, 1.0 - cos_theta * cos_theta));
    const double phi = 6.283185307179586 * uniform01();
    x = sin_theta * std::cos(phi);
    y = sin_theta * std::sin(phi);
    z = cos_theta;
  }

 private:
  std::mt19937_64 m_engine;
};

}  // namespace coalesce
