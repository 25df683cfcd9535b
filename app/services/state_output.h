// The states a run writes: --save-state at the end of a run (--steps and the viewer) and each snapshot of a
// series. A finite final state replaces the file; one that went NaN or Inf is saved beside it
// (output_paths.h), so a good file is never replaced by a broken one.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/backend.h"
#include "sim/errors.h"
#include "sim/state_file.h"
#include "sim/units.h"

namespace coalesce {

// What a run writes beside its records, the same for --save-state and every snapshot.
struct StateWriting {
  std::optional<StateFormat> format;  // --format, for paths whose extension says nothing
  std::vector<std::uint64_t> ids;     // the particles' IDs in state order (a loaded file's); empty: 0..N-1
  std::optional<PhysicalUnits> units;
  double softening = 0.0;
};

// The end of a run's state, read in the backend's own precision.
struct FinalState {
  std::string non_finite;  // index of the first particle with a non-finite value, or "" when all are finite
  std::string written;     // the path saved to, or "" when no path was given
  std::string rounded;     // "" or what the format could not hold ("fp64 state rounded to float32 for Tipsy")
};

// Checks the backend's state and, when `path` is not empty, saves it for --save-state in the format its
// extension (or --format) names, at simulation time `time`: to `path`, or to its non-finite copy when a
// value is not finite. Throws the output writer's errors; the previous file then survives.
FinalState finish_state(Backend& backend, const std::string& path, const StateWriting& writing, double time);

// A state with a NaN or Inf value where only a finite one may be written (a snapshot).
class NonFiniteState : public RuntimeFailure {
 public:
  NonFiniteState(const std::string& message, std::string particle)
      : RuntimeFailure(message), m_particle(std::move(particle)) {}
  const std::string& particle() const { return m_particle; }

 private:
  std::string m_particle;
};

// The backend's state encoded in `format` at time `time` (a snapshot; `file` names it in messages), handed
// to `write` while the records it borrows are alive. Returns what finish_state's `rounded` says. Throws
// NonFiniteState, writing nothing, when a value is not finite.
std::string write_backend_state(Backend& backend, const OutputFile& file, StateFormat format,
                                const StateWriting& writing, double time,
                                const std::function<void(const std::vector<EncodedFile>&)>& write);

}  // namespace coalesce
