// What one step needs besides the particle state: solver, time step, softening, attractors, clock.
#pragma once

#include <cstdint>

#include "sim/layout.h"
#include "sim/physics.h"

namespace coalesce {

struct SimParams {
  Solver solver = Solver::AllPairs;
  float dt = 1e-3f;
  float softening = 0.05f;
  AttractorSet attractors{};  // used by Solver::Attractors

  float softening_squared() const { return softening * softening; }
};

// Simulation time is step * dt, recomputed rather than accumulated so every backend agrees on it.
struct SimClock {
  std::uint64_t step = 0;
  double time(float dt) const { return static_cast<double>(step) * dt; }
};

}  // namespace coalesce
