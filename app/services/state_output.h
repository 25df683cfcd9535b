// --save-state at the end of a run (--steps and the viewer): a finite state replaces the file; a state that
// went NaN or Inf is saved beside it (output_paths.h), so a good file is never replaced by a broken one.
#pragma once

#include <string>

#include "sim/backend.h"

namespace coalesce {

// The end of a run's state, read in the backend's own precision.
struct FinalState {
  std::string non_finite;  // index of the first particle with a non-finite value, or "" when all are finite
  std::string written;     // the path saved to, or "" when no path was given
};

// Checks the backend's state and, when `path` is not empty, saves it for --save-state ('<f4' in fp32, '<f8'
// in fp64): to `path`, or to its non-finite copy when a value is not finite. Throws the output writer's
// errors; the previous file then survives.
FinalState finish_state(Backend& backend, const std::string& path);

}  // namespace coalesce
