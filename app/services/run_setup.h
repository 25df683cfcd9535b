// The start of every run, shared by --steps and the viewer: the scene with the CLI's overrides applied, and
// the initial state (generated from the scene, or read from --load-state).
#pragma once

#include <string>
#include <vector>

#include "app/services/options.h"
#include "sim/particle.h"
#include "sim/scene.h"

namespace coalesce {

// The preset or scene file named by --scene, with --particles, --seed, --dt, --softening and --solver
// applied. Throws UsageError for an unknown preset or a malformed file (the message names file and line).
// `notice` receives what the user should know (--solver attractors borrowing the swirl set), else "".
Scene scene_from_options(const Options& options, std::string& notice);

// The state to start from: --load-state's file (validated: shape, dtype, finite values; UsageError
// otherwise), else generate_initial_state(scene). With --load-state, scene.particles is set to the file's N.
std::vector<Particle> initial_state_from_options(const Options& options, Scene& scene);

}  // namespace coalesce
