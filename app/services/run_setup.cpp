// The scene and initial state of a run, from the command line (see run_setup.h).
#include "app/services/run_setup.h"

#include <algorithm>
#include <new>
#include <string>
#include <utility>

#include "sim/errors.h"
#include "sim/state_file.h"

namespace coalesce {

Scene scene_from_options(const Options& options, std::string& notice) {
  Scene scene = is_preset(options.scene) ? preset_scene(options.scene) : load_scene_file(options.scene);
  if (options.particles) scene.particles = *options.particles;
  if (options.seed) scene.seed = *options.seed;
  if (options.dt) scene.params.dt = *options.dt;
  if (options.softening) scene.params.softening = *options.softening;
  notice = options.solver ? use_solver(scene, *options.solver) : std::string();
  return scene;
}

InitialState initial_state_from_options(const Options& options, Scene& scene) {
  InitialState state;
  if (options.load_state.empty()) {
    state.fp32 = generate_initial_state(scene);  // float records: exact in either precision
    state.units = scene.units;
    return state;
  }
  try {
    const StateFormat format = input_format("--load-state", options.load_state, options.state_format);
    LoadedState file = load_state_file(options.load_state, format, options.precision);  // validated
    if (options.precision == Precision::Fp64)
      state.fp64 = records_for<Precision::Fp64>(file.contents);
    else
      state.fp32 = records_for<Precision::Fp32>(file.contents);
    if (file.contents.ids_from_file) state.ids = std::move(file.contents.ids);
    state.units = file.contents.units;
    state.time = file.contents.time;  // the file's clock goes on, in the units the reader converted to
    const auto& given = options.given;
    if (!state.units && std::find(given.begin(), given.end(), "--scene") != given.end()) state.units = scene.units;
    if (!state.units) state.unitless_file = options.load_state;
    if (!file.notice.empty()) state.notice = "--load-state " + file.notice;
  } catch (const UsageError& e) {
    throw UsageError(std::string("--load-state ") + e.what());
  } catch (const RuntimeFailure& e) {
    throw RuntimeFailure(std::string("--load-state ") + e.what());
  } catch (const std::bad_alloc&) {
    throw RuntimeFailure("--load-state " + options.load_state +
                         ": out of host memory converting its particles; free memory, or load a state with "
                         "fewer particles");
  }
  scene.particles = static_cast<int>(state.size());
  return state;
}

}  // namespace coalesce
