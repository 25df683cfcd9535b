// --save-state at the end of a run (--steps and the viewer): a finite state replaces the file; a state that
// went NaN or Inf is saved beside it (output_paths.h), so a good file is never replaced by a broken one.
#pragma once

#include <string>
#include <vector>

#include "sim/particle.h"

namespace coalesce {

// Index of the first particle with a non-finite value, or "" when all are finite.
std::string first_non_finite(const std::vector<Particle>& state);
std::string first_non_finite(const std::vector<ParticleF64>& state);

// Saves `state` for --save-state `path` ('<f4' from float records, '<f8' from double ones); returns the path
// written (`path`, or its non-finite copy when `finite` is false). Throws the output writer's errors; the
// previous file then survives.
std::string save_final_state(const std::string& path, const std::vector<Particle>& state, bool finite);
std::string save_final_state(const std::string& path, const std::vector<ParticleF64>& state, bool finite);

}  // namespace coalesce
