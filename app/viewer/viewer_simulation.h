// The viewer's simulation: scene, backend and clock, and the edits the panel makes to them (layout,
// precision, N, scene, reset). Rebuilding the backend bumps generation() so the render path re-registers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "app/services/backend_factory.h"
#include "app/services/force_choice.h"
#include "app/services/options.h"
#include "app/services/start_size.h"
#include "app/services/state_output.h"
#include "sim/scene.h"

namespace coalesce {

// What a precision switch did, as the panel's notice says it (docs/viewer.md, "Precision").
struct PrecisionChange {
  std::string notice;       // one line; empty when the precision was already the one asked for
  bool refused = false;     // the backend could not hold the state in it: nothing changed
  std::size_t rounded = 0;  // stored values that rounding changed (fp64 -> fp32)
};

class ViewerSimulation {
 public:
  explicit ViewerSimulation(const Options& options);

  Backend& backend() { return *m_selection.backend; }
  const Backend& backend() const { return *m_selection.backend; }
  const Scene& scene() const { return m_scene; }
  // What --scene would name to load this scene again: the preset's name or the scene file's path.
  const std::string& scene_source() const { return m_scene_source; }
  SimParams& params() { return m_scene.params; }
  std::uint64_t step_count() const { return m_clock.step; }
  double time() const { return m_clock.time(m_scene.params.dt); }
  const std::string& backend_notice() const { return m_selection.notice; }
  const std::string& scene_notice() const { return m_scene_notice; }
  // The force method in use (the backend's; the scene's method follows it) and, under auto, what was
  // measured (app/services/force_choice.h).
  ForceMethod force_method() const { return backend().force_method(); }
  const std::string& forces_account() const { return m_forces_account; }
  // --forces as given (none: auto): the row all-pairs runs, now or after a switch from attractors.
  std::optional<ForceMethod> asked_forces() const { return m_options.forces; }
  // How the viewer chose N at start (app/services/start_size.h); particles is 0 when the user or the scene
  // set it.
  const SizeChoice& start_size() const { return m_start_size; }
  // The first frames' check settled (app/viewer/viewer_start_check.h): N is `particles` from now on (the
  // caller rebuilds when it is lower) and `line` says why.
  void settle_start_size(int particles, const std::string& line) {
    m_start_size.particles = particles;
    m_start_size.frames = line;
  }
  // The --load-state file the state started from; empty once the state comes from the scene's seed.
  const std::string& state_file() const { return m_state_file; }
  // What loading --load-state converted (byte order, precision), "" when nothing; the viewer prints it.
  const std::string& load_notice() const { return m_load_notice; }
  std::uint64_t generation() const { return m_generation; }
  // What a saved state or snapshot carries beside the records: the file's IDs and units (the scene's units
  // once the state comes from its seed), the softening, --format.
  StateWriting writing() const;
  bool is_cuda() const;  // the backend runs on a CUDA device (device facts, not its name)
  // The CUDA device the backend runs on (app/services/cuda_services.h: 0); -1 for the CPU.
  int cuda_device() const;

  void advance();                            // one step
  void set_layout(Layout layout);            // converts in place: the state is kept bitwise
  // Converts the state in place (Backend::set_precision): never re-generated nor re-uploaded, so fp32 ->
  // fp64 -> fp32 gives back the same bits. A refusal (fp64 does not fit on the device) keeps the state and
  // its precision, and says so in the notice.
  PrecisionChange set_precision(Precision precision);
  std::string set_solver(ForceMethod family);
  // The tree's theta (kThetaRange) and memory orders, kept across rebuilds; the next kick builds with them.
  void set_tree_settings(const TreeSettings& settings);  // use_solver(): returns its notice, if any
  void reseed(int particles);                // new N: new backend, state regenerated from the scene's seed
  void load_scene(const std::string& name);  // keeps the current N
  void reset();                              // back to the initial state of the current scene and N

 private:
  // --forces, or auto's measurement on the current backend and N.
  void use_forces(const ForceChoice& choice);
  void rebuild(int particles);

  Options m_options;
  Scene m_scene;
  BackendSelection m_selection;
  SimClock m_clock;
  std::uint64_t m_generation = 0;
  std::string m_scene_notice;
  std::string m_state_file;
  std::string m_load_notice;
  std::string m_scene_source;
  SizeChoice m_start_size;
  std::string m_forces_account;
  std::vector<std::uint64_t> m_ids;           // --load-state's particle IDs; empty: 0..N-1
  std::optional<PhysicalUnits> m_units;  // the run's physical units (run_setup.h's InitialState::units)
};

}  // namespace coalesce
