// Scene and backend lifetime for the viewer; initial state through the same setup as --steps.
#include "app/viewer/viewer_simulation.h"

#include "app/run_setup.h"
#include "sim/errors.h"

namespace coalesce {

ViewerSimulation::ViewerSimulation(const Options& options) : m_options(options) {
  m_scene = scene_from_options(m_options, m_scene_notice);
  std::vector<Particle> state = initial_state_from_options(m_options, m_scene);
  m_state_file = m_options.load_state;
  m_scene_source = m_options.scene;
  m_selection = make_backend(m_options.backend, m_scene.particles, m_options.layout);
  m_selection.backend->upload(state);
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

std::string ViewerSimulation::set_solver(Solver solver) {
  return use_solver(m_scene, solver);
}

void ViewerSimulation::rebuild(int particles) {
  // Build the new backend before dropping the old, so a failure (N too large) leaves the viewer running.
  Scene scene = m_scene;
  scene.particles = particles;
  const std::vector<Particle> state = generate_initial_state(scene);
  BackendSelection next = make_backend(m_options.backend, particles, backend().layout());
  next.backend->upload(state);
  m_selection = std::move(next);
  m_scene = scene;
  m_clock = SimClock{};
  m_state_file.clear();  // the state now comes from the scene's seed
  ++m_generation;
}

void ViewerSimulation::reseed(int particles) {
  rebuild(particles);
}

void ViewerSimulation::load_scene(const std::string& name) {
  const int particles = m_scene.particles;
  const Scene previous = m_scene;
  m_scene = preset_scene(name);
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
    const std::vector<Particle> state = initial_state_from_options(m_options, scene);
    if (static_cast<int>(state.size()) != backend().particle_count())
      throw UsageError(m_state_file + " now holds " + std::to_string(state.size()) + " particles, not " +
                       std::to_string(backend().particle_count()) +
                       "; set N to re-seed from the scene instead");
    backend().upload(state);
    m_clock = SimClock{};
    return;
  }
  backend().upload(generate_initial_state(m_scene));
  m_clock = SimClock{};
}

}  // namespace coalesce
