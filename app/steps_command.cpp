// coalesce --steps N: simulate with no window, print one stats line, optionally load and save the state.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "app/backend_factory.h"
#include "app/commands.h"
#include "app/errors.h"
#include "app/run_setup.h"
#include "sim/diagnostics.h"
#include "sim/npy.h"

namespace coalesce {
namespace {

// Energy needs all pairs in double precision on the CPU: cheap below this N, slow above it.
constexpr int kMaxDiagnosticParticles = 20000;

std::string first_non_finite(const std::vector<Particle>& state) {
  for (std::size_t i = 0; i < state.size(); ++i) {
    const Particle& p = state[i];
    for (float v : {p.x, p.y, p.z, p.vx, p.vy, p.vz, p.mass})
      if (!std::isfinite(v)) return std::to_string(i);
  }
  return {};
}

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

}  // namespace

int run_steps(const Options& options) {
  Scene scene = scene_from_options(options);
  const std::vector<Particle> initial = initial_state_from_options(options, scene);
  const SimParams& params = scene.params;
  const std::int64_t steps = options.steps.value_or(0);

  BackendSelection selection = make_backend(options.backend, scene.particles, options.layout);
  if (!selection.notice.empty()) std::fprintf(stderr, "coalesce: %s\n", selection.notice.c_str());
  Backend& backend = *selection.backend;
  backend.upload(initial);

  const bool diagnose = scene.particles <= kMaxDiagnosticParticles;
  SimClock clock;
  Diagnostics before{};
  if (diagnose) before = compute_diagnostics(initial, params, clock.time(params.dt));

  const auto start = std::chrono::steady_clock::now();
  for (std::int64_t s = 0; s < steps; ++s) {
    backend.step(params, clock.time(params.dt));
    ++clock.step;
  }
  backend.synchronize();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::vector<Particle> final_state = backend.download();

  // Save first: even a state that went non-finite is worth keeping to look at.
  if (!options.save_state.empty()) {
    try {
      save_npy(options.save_state, final_state);
    } catch (const std::exception& e) {
      throw RuntimeFailure(std::string("--save-state ") + options.save_state + ": " + e.what());
    }
  }

  std::string line = "coalesce: " + backend.name() + ", " + std::string(to_string(options.layout)) + ", " +
                     std::string(to_string(params.solver)) + ", N=" + std::to_string(scene.particles) +
                     ", steps=" + std::to_string(steps) + ": " + format("%.3f s", seconds);
  if (steps > 0 && seconds > 0) line += format(", %.1f steps/s", static_cast<double>(steps) / seconds);
  if (diagnose) {
    const Diagnostics after = compute_diagnostics(final_state, params, clock.time(params.dt));
    const double drift = before.total_energy != 0.0
                             ? std::abs((after.total_energy - before.total_energy) / before.total_energy)
                             : std::abs(after.total_energy - before.total_energy);
    const double momentum =
        std::sqrt(after.momentum.x * after.momentum.x + after.momentum.y * after.momentum.y +
                  after.momentum.z * after.momentum.z);
    line += format(", energy %.6g", after.total_energy) + format(" (drift %.2e)", drift) +
            format(", |momentum| %.3e", momentum);
  } else {
    line += ", energy not computed (N > " + std::to_string(kMaxDiagnosticParticles) + ")";
  }
  if (!options.save_state.empty()) line += ", state saved to " + options.save_state;
  std::puts(line.c_str());

  const std::string bad = first_non_finite(final_state);
  if (!bad.empty())
    throw RuntimeFailure("the state is not finite after " + std::to_string(steps) + " steps (particle " +
                         bad + "); try a smaller --dt or a larger --softening");
  return 0;
}

}  // namespace coalesce
