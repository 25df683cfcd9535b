// save_final_state (see state_output.h).
#include "app/services/state_output.h"

#include <cmath>

#include "app/services/interrupt.h"
#include "app/services/output_paths.h"
#include "sim/npy.h"

namespace coalesce {

std::string first_non_finite(const std::vector<Particle>& state) {
  for (std::size_t i = 0; i < state.size(); ++i) {
    const Particle& p = state[i];
    for (float v : {p.x, p.y, p.z, p.vx, p.vy, p.vz, p.mass})
      if (!std::isfinite(v)) return std::to_string(i);
  }
  return {};
}

std::string save_final_state(const std::string& path, const std::vector<Particle>& state, bool finite) {
  const std::string written = finite ? path : non_finite_state_path(path);
  // After the run, a path that changed is the run's failure (exit 1), not a usage error.
  const OutputFile file = recheck_output_path(finite ? "--save-state" : "--save-state's non-finite copy", written);
  plan_output(file);
  save_npy(file, state);
  return written;
}

}  // namespace coalesce
