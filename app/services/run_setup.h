// The start of every run, shared by --steps and the viewer: the scene with the CLI's overrides applied, and
// the initial state (generated from the scene, or read from --load-state).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/services/options.h"
#include "sim/backend.h"
#include "sim/particle.h"
#include "sim/scene.h"
#include "sim/units.h"

namespace coalesce {

// The preset or scene file named by --scene, with --particles, --seed, --dt, --softening and --solver
// applied. Throws UsageError for an unknown preset or a malformed file (the message names file and line).
// `notice` receives what the user should know (--solver attractors borrowing the swirl set), else "".
Scene scene_from_options(const Options& options, std::string& notice);

// A run's first state in the records of its precision: float records for fp32 (what the scenes generate),
// double records for a --load-state file in fp64, so no value is rounded on the way in.
struct InitialState {
  std::vector<Particle> fp32;
  std::vector<ParticleF64> fp64;  // used when not empty
  std::string notice;             // what loading the file converted ("--load-state F: ..."), else ""
  std::vector<std::uint64_t> ids;      // the file's particle IDs, kept through the run; empty: 0..N-1
  // The run's physical units: a loaded file's, else --scene's where named, else the generating scene's;
  // none for a file without units and no --scene (a default scene's units would be a guess).
  std::optional<PhysicalUnits> units;
  std::string unitless_file;  // a loaded file that gave no units while no --scene named any, else ""
  double time = 0.0;          // the simulation time the state is at: a loaded file's, else 0

  std::size_t size() const { return fp64.empty() ? fp32.size() : fp64.size(); }
  void upload_to(Backend& backend) const {
    if (fp64.empty())
      backend.upload(fp32);
    else
      backend.upload(fp64);
  }
};

// The state to start from in options.precision: --load-state's file (validated: shape, dtype, finite
// values; UsageError otherwise), else generate_initial_state(scene). With --load-state, scene.particles is
// set to the file's N.
InitialState initial_state_from_options(const Options& options, Scene& scene);

}  // namespace coalesce
