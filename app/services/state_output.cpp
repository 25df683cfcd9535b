// save_final_state (see state_output.h).
#include "app/services/state_output.h"

#include <cmath>
#include <string>
#include <vector>

#include "app/services/interrupt.h"
#include "app/services/output_paths.h"
#include "sim/npy.h"

namespace coalesce {

namespace {

template <class Real>
std::string first_non_finite_in(const std::vector<ParticleRecord<Real>>& state) {
  for (std::size_t i = 0; i < state.size(); ++i) {
    const ParticleRecord<Real>& p = state[i];
    const Real values[] = {p.x, p.y, p.z, p.vx, p.vy, p.vz, p.mass};
    for (Real v : values)
      if (!std::isfinite(v)) return std::to_string(i);
  }
  return {};
}

template <class Real>
std::string save_state_records(const std::string& path, const std::vector<ParticleRecord<Real>>& state,
                               bool finite) {
  const std::string written = finite ? path : non_finite_state_path(path);
  // After the run, a path that changed is the run's failure (exit 1), not a usage error.
  const OutputFile file = recheck_output_path(finite ? "--save-state" : "--save-state's non-finite copy", written);
  plan_output(file);
  save_npy(file, state);
  return written;
}

}  // namespace

FinalState finish_state(Backend& backend, const std::string& path) {
  FinalState out;
  with_records(backend, [&](const auto& state) {
    out.non_finite = first_non_finite_in(state);
    if (!path.empty()) out.written = save_state_records(path, state, out.non_finite.empty());
  });
  return out;
}

}  // namespace coalesce
