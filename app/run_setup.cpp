// The scene and initial state of a run, from the command line (see run_setup.h).
#include "app/run_setup.h"

#include <stdexcept>
#include <string>

#include "app/errors.h"
#include "sim/npy.h"

namespace coalesce {

Scene scene_from_options(const Options& options) {
  Scene scene;
  if (is_preset(options.scene)) {
    scene = preset_scene(options.scene);
  } else {
    try {
      scene = load_scene_file(options.scene);
    } catch (const SceneError& e) {
      throw UsageError(e.what());
    }
  }
  if (options.particles) scene.particles = *options.particles;
  if (options.seed) scene.seed = *options.seed;
  if (options.dt) scene.params.dt = *options.dt;
  if (options.softening) scene.params.softening = *options.softening;
  if (options.solver) scene.params.solver = *options.solver;
  return scene;
}

std::vector<Particle> initial_state_from_options(const Options& options, Scene& scene) {
  if (options.load_state.empty()) return generate_initial_state(scene);
  std::vector<Particle> state;
  try {
    state = load_npy(options.load_state);  // validates shape, dtype and finite values
  } catch (const NpyError& e) {
    throw UsageError(std::string("--load-state ") + e.what());
  }
  scene.particles = static_cast<int>(state.size());
  return state;
}

}  // namespace coalesce
