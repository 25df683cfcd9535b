// finish_state and save_backend_state (see state_output.h).
#include "app/services/state_output.h"

#include <cmath>
#include <string>
#include <vector>

#include "app/services/interrupt.h"
#include "app/services/output_paths.h"

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

StateExtras extras_of(const StateWriting& writing, double time) {
  StateExtras extras;
  extras.ids = &writing.ids;
  extras.time = time;
  extras.units = writing.units;
  extras.softening = writing.softening;
  return extras;
}

template <class Real>
std::string rounding_of(StateFormat format) {
  if (sizeof(Real) == sizeof(float) || format_holds_doubles(format)) return {};
  return "the fp64 state was rounded to float32, as " + std::string(format_name(format)) + " stores floats";
}

template <class Real>
std::string save_state_records(const std::string& path, const std::vector<ParticleRecord<Real>>& state,
                               const StateWriting& writing, double time, bool finite, std::string& rounded) {
  const std::string written = finite ? path : non_finite_state_path(path);
  // After the run, a path that changed is the run's failure (exit 1), not a usage error.
  const std::string flag = finite ? "--save-state" : "--save-state's non-finite copy";
  const OutputFile file = recheck_output_path(flag, written);
  const StateFormat format = output_format(flag, written, writing.format);
  plan_output(file);
  for (const std::string& companion : companion_paths(written, format))
    plan_output(recheck_output_path(flag + "'s IDs", companion));
  save_state_file(file, format, state, extras_of(writing, time));
  rounded = rounding_of<Real>(format);
  return written;
}

}  // namespace

FinalState finish_state(Backend& backend, const std::string& path, const StateWriting& writing, double time) {
  FinalState out;
  with_records(backend, [&](const auto& state) {
    out.non_finite = first_non_finite_in(state);
    if (!path.empty())
      out.written = save_state_records(path, state, writing, time, out.non_finite.empty(), out.rounded);
  });
  return out;
}

std::string write_backend_state(Backend& backend, const OutputFile& file, StateFormat format,
                                const StateWriting& writing, double time,
                                const std::function<void(const std::vector<EncodedFile>&)>& write) {
  std::string rounded;
  with_records(backend, [&](const auto& state) {
    using Real = std::decay_t<decltype(state[0].x)>;
    if (const std::string bad = first_non_finite_in(state); !bad.empty())
      throw NonFiniteState(file.shown + ": the state is not finite (particle " + bad + ")", bad);
    write(encode_state_file(file, format, state, extras_of(writing, time)));
    rounded = rounding_of<Real>(format);
  });
  return rounded;
}

}  // namespace coalesce
