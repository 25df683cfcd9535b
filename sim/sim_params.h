// The physics of a step besides the particle state: time step, softening, attractors, clock. How the forces
// are computed is the backend's force method (sim/force_method.h, Backend::set_force_method).
#pragma once

#include <cstdint>

#include "sim/physics.h"

namespace coalesce {

struct SimParams {
  // As typed: an fp64 run steps with these, an fp32 run rounds each once where it is used.
  double dt = 1e-3;
  double softening = 0.05;
  AttractorSet attractors{};  // what pulls the bodies under the attractors method
};

// dt in the state's precision.
template <class Real>
Real time_step(const SimParams& params) {
  return static_cast<Real>(params.dt);
}

// eps^2 in the state's precision: the softening rounded to Real once, then squared in Real (in fp32 the
// same float as when the softening was kept as a float).
template <class Real>
Real softening_squared(const SimParams& params) {
  const Real eps = static_cast<Real>(params.softening);
  return eps * eps;
}

// Simulation time is step * dt, recomputed rather than accumulated so every backend agrees on it.
// A run's clock: steps taken, from the time its state started at (a loaded file's, else 0).
struct SimClock {
  std::uint64_t step = 0;
  double start = 0.0;
  double time(double dt) const { return start + static_cast<double>(step) * dt; }
};

}  // namespace coalesce
