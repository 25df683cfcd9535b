// What one step needs besides the particle state: solver, time step, softening, attractors, clock.
#pragma once

#include <cstdint>

#include "sim/force_scheme.h"
#include "sim/layout.h"
#include "sim/physics.h"

namespace coalesce {

struct SimParams {
  Solver solver = Solver::AllPairs;
  ForceScheme forces = ForceScheme::OneSided;  // how all-pairs evaluates its pairs
  float dt = 1e-3f;
  float softening = 0.05f;
  AttractorSet attractors{};  // used by Solver::Attractors

  float softening_squared() const { return softening * softening; }
};

// eps^2 in the state's precision: the scene's float softening, squared in Real (exact input, one rounding).
template <class Real>
Real softening_squared(const SimParams& params) {
  return static_cast<Real>(params.softening) * static_cast<Real>(params.softening);
}

// Simulation time is step * dt, recomputed rather than accumulated so every backend agrees on it.
struct SimClock {
  std::uint64_t step = 0;
  double time(float dt) const { return static_cast<double>(step) * dt; }
};

}  // namespace coalesce
