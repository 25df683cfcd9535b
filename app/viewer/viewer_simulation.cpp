// Scene and backend lifetime for the viewer; initial state through the same setup as --steps.
#include "app/viewer/viewer_simulation.h"

#include <chrono>
#include <map>

#include "app/services/cuda_services.h"
#include "app/services/force_choice.h"
#include "app/services/run_setup.h"
#include "sim/cpu_backend.h"
#include "sim/errors.h"
#include "sim/force_method.h"
#include "sim/limits.h"

namespace coalesce {
namespace {

// The mean wall time of a step at `n` on the backend the run will use, after one warm-up step; each step is
// waited for, so the GPU's time is in it. At least 3 steps, and up to 30 ms of them. All-pairs steps with
// the scheme the run will use at this N: --forces, or auto's own measurement here; the tree at the run's
// theta (`forces` names what was timed).
double measure_step_ms(const Scene& scene, int n, const Options& options, bool gpu, std::string& forces) {
  Scene trial = scene;
  trial.particles = n;
  std::unique_ptr<Backend> backend =
      gpu ? make_cuda_backend(n, options.layout, options.precision, MemoryEstimate::Quiet)
          : std::make_unique<CpuBackend>(n, options.layout, 0, options.precision,
                                         options.cpu_target.value_or(best_cpu_target()));
  backend->set_tree_settings(tree_settings_of(options));  // the tree's cost at the run's own theta
  backend->upload(generate_initial_state(trial));
  const ForceChoice choice = choose_forces(*backend, trial.method, trial.params, 0.0, options.forces);
  if (has_forces_choice(choice.method))
    forces = "forces " + std::string(method_info(choice.method).forces_name);
  else if (choice.method == ForceMethod::Tree)
    forces = "tree theta " + exact_text(backend->tree_settings().theta);
  SimClock clock;
  const auto step = [&] {
    backend->step(trial.params, clock.time(trial.params.dt));
    ++clock.step;
    backend->synchronize();
  };
  step();
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  int steps = 0;
  double elapsed_ms = 0.0;
  while (steps < 3 || (elapsed_ms < 30.0 && steps < 100)) {
    step();
    ++steps;
    elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  }
  return elapsed_ms / steps;
}

SizeChoice measured_start_size(const Scene& scene, const Options& options) {
  const bool gpu = options.backend != BackendChoice::Cpu && count_cuda_devices(nullptr) > 0;
  const SizeRule rule = start_size_rule(scene, gpu);
  std::map<int, std::string> forces;  // the scheme each trial timed
  std::vector<SizeTrial> trials = measure_doubling(
      gpu ? 4096 : 256, rule, [&](int n) { return measure_step_ms(scene, n, options, gpu, forces[n]); });
  for (SizeTrial& t : trials) t.forces = forces[t.particles];
  SizeChoice choice = choose_start_size(trials, rule);
  choice.reason = std::string(gpu ? "this GPU" : "this CPU") + ": " + choice.reason;
  return choice;
}

// The family the viewer runs a preset of `family` with: pair gravity on the tree.
ForceMethod demo_family(ForceMethod family) {
  return method_info(family).physics == Physics::PairGravity ? ForceMethod::Tree : family;
}

// 1234567 as "1,234,567": the counts of a precision notice run to billions.
std::string grouped(std::size_t value) {
  std::string digits = std::to_string(value);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3)
    digits.insert(static_cast<std::size_t>(at), ",");
  return digits;
}

}  // namespace

ViewerSimulation::ViewerSimulation(const Options& options) : m_options(options) {
  m_scene = scene_from_options(m_options, m_scene_notice);
  // The demo is real gravity at scale (issue 32): a preset's pair gravity runs on the tree, unless --solver
  // or --forces names one; --steps keeps the scene's exact all-pairs, the reference.
  if (!m_options.solver && !m_options.forces && is_preset(m_options.scene))
    m_scene.method = demo_family(m_scene.method);
  if (chooses_start_size(m_options)) {
    m_start_size = measured_start_size(m_scene, m_options);
    m_scene.particles = m_start_size.particles;
  }
  const InitialState state = initial_state_from_options(m_options, m_scene);
  m_load_notice = state.notice;
  m_state_file = m_options.load_state;
  m_ids = state.ids;
  m_units = state.units;
  m_clock.start = state.time;
  m_scene_source = m_options.scene;
  m_selection = make_backend(m_options.backend, m_scene.particles, m_options.layout, m_options.precision,
                             m_options.cpu_target);
  m_selection.backend->set_tree_settings(tree_settings_of(m_options));
  state.upload_to(*m_selection.backend);
  use_forces(choose_forces(backend(), m_scene.method, m_scene.params, time(), m_options.forces));
}

StateWriting ViewerSimulation::writing() const {
  StateWriting writing;
  writing.format = m_options.state_format;
  writing.ids = m_ids;
  writing.units = m_units;
  writing.softening = m_scene.params.softening;
  return writing;
}

void ViewerSimulation::use_forces(const ForceChoice& choice) {
  m_scene.method = choice.method;
  m_forces_account = choice.account;
}

bool ViewerSimulation::is_cuda() const {
  return backend().device_info().gpu;
}

int ViewerSimulation::cuda_device() const {
  return is_cuda() ? 0 : -1;
}

void ViewerSimulation::advance() {
  backend().step(m_scene.params, m_clock.time(m_scene.params.dt));
  ++m_clock.step;
}

void ViewerSimulation::set_layout(Layout layout) {
  if (layout != backend().layout()) backend().set_layout(layout);
}

PrecisionChange ViewerSimulation::set_precision(Precision precision) {
  const Precision from = backend().precision();
  if (precision == from) return {};
  const std::string names = std::string(to_string(from)) + " -> " + std::string(to_string(precision));
  PrecisionChange change;
  try {
    change.rounded = backend().set_precision(precision);
  } catch (const std::exception& e) {
    // The backend put the state back as it was (sim/backend.h): the run goes on in `from`.
    change.refused = true;
    change.notice =
        "precision " + names + " refused, still " + std::string(to_string(from)) + ": " + e.what();
    return change;
  }
  const std::size_t values =
      static_cast<std::size_t>(backend().particle_count()) * static_cast<std::size_t>(kFieldsPerParticle);
  // Every switch says what became of the values, so an exact one is as visible as a rounding one.
  if (change.rounded > 0)
    change.notice = "precision " + names + ": " + grouped(change.rounded) + " of " + grouped(values) +
                    " values rounded to the nearest float";
  else
    change.notice = "precision " + names + ": all " + grouped(values) + " values kept exactly";
  // auto measures again: the schemes' ratio differs between precisions (docs/perf.md, "Issue 24").
  try {
    use_forces(choose_forces(backend(), m_scene.method, m_scene.params, time(), m_options.forces));
  } catch (const std::exception& e) {
    change.notice += "; forces kept as " + std::string(method_info(m_scene.method).name) + ": " + e.what();
  }
  return change;
}

std::string ViewerSimulation::set_solver(ForceMethod family) {
  Scene scene = m_scene;
  std::string notice = use_solver(scene, family);
  // all-pairs now: auto measures here (a failure changes nothing); attractors: no choice.
  const ForceChoice forces = choose_forces(backend(), scene.method, scene.params, time(), m_options.forces);
  m_scene = scene;
  use_forces(forces);
  return notice;
}

void ViewerSimulation::set_tree_settings(const TreeSettings& settings) {
  backend().set_tree_settings(settings);
}

void ViewerSimulation::rebuild(int particles) {
  // Build the new backend before dropping the old, so a failure (N too large) leaves the viewer running.
  Scene scene = m_scene;
  scene.particles = particles;
  const std::vector<Particle> state = generate_initial_state(scene);
  BackendSelection next =
      make_backend(m_options.backend, particles, backend().layout(), backend().precision(), m_options.cpu_target);
  next.backend->set_tree_settings(backend().tree_settings());  // the panel's theta, kept
  next.backend->upload(state);
  // At the new N; the scene's family, whichever row of it ran before.
  const ForceChoice forces = choose_forces(*next.backend, scene.method, scene.params, 0.0, m_options.forces);
  m_selection = std::move(next);
  m_scene = scene;
  m_clock = SimClock{};
  m_state_file.clear();  // the state now comes from the scene's seed
  m_ids.clear();
  m_units = scene.units;
  use_forces(forces);
  ++m_generation;
}

void ViewerSimulation::reseed(int particles) {
  rebuild(particles);
}

void ViewerSimulation::load_scene(const std::string& name) {
  const int particles = m_scene.particles;
  const Scene previous = m_scene;
  m_scene = preset_scene(name);
  // Pair gravity stays on the run's family (the tree's N would be too many for all-pairs); the swirl brings
  // its attractors, and leaving it the demo's tree.
  if (method_info(m_scene.method).physics == Physics::PairGravity)
    m_scene.method = method_info(previous.method).physics == Physics::PairGravity
                         ? family_of(previous.method)
                         : demo_family(m_scene.method);
  try {
    rebuild(particles);
  } catch (...) {
    m_scene = previous;
    throw;
  }
  m_scene_source = name;
}

void ViewerSimulation::reset() {
  if (!m_state_file.empty()) {
    Scene scene = m_scene;
    Options options = m_options;
    options.precision = backend().precision();  // the file read into the precision the run has now
    const InitialState state = initial_state_from_options(options, scene);
    if (static_cast<int>(state.size()) != backend().particle_count())
      throw UsageError(m_state_file + " now holds " + std::to_string(state.size()) + " particles, not " +
                       std::to_string(backend().particle_count()) +
                       "; set N to re-seed from the scene instead");
    state.upload_to(backend());
    m_ids = state.ids;
    m_clock = SimClock{0, state.time};
    return;
  }
  backend().upload(generate_initial_state(m_scene));
  m_clock = SimClock{};
}

}  // namespace coalesce
