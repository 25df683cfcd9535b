// Scene and backend lifetime for the viewer; initial state through the same setup as --steps.
#include "app/viewer_simulation.h"

#include "app/run_setup.h"

namespace coalesce {

ViewerSimulation::ViewerSimulation(const Options& options) : m_options(options) {
  m_scene = scene_from_options(m_options);
  std::vector<Particle> state = initial_state_from_options(m_options, m_scene);
  m_selection = make_backend(m_options.backend, m_scene.particles, m_options.layout);
  m_selection.backend->upload(state);
}

bool ViewerSimulation::is_cuda() const {
  return backend().name().rfind("cuda", 0) == 0;
}

void ViewerSimulation::advance() {
  backend().step(m_scene.params, m_clock.time(m_scene.params.dt));
  ++m_clock.step;
}

void ViewerSimulation::set_layout(Layout layout) {
  if (layout != backend().layout()) backend().set_layout(layout);
}

void ViewerSimulation::set_solver(Solver solver) {
  m_scene.params.solver = solver;
  if (solver == Solver::Attractors && m_scene.params.attractors.count == 0) {
    m_scene.params.attractors = preset_scene("swirl").params.attractors;
  }
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
}

void ViewerSimulation::reset() {
  if (!m_options.load_state.empty() && m_scene.particles == backend().particle_count() && m_generation == 0) {
    Scene scene = m_scene;
    backend().upload(initial_state_from_options(m_options, scene));
    m_clock = SimClock{};
    return;
  }
  backend().upload(generate_initial_state(m_scene));
  m_clock = SimClock{};
}

}  // namespace coalesce
