#include "app/services/force_choice.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <vector>

namespace coalesce {

namespace {

// Timed tries per scheme, the fastest kept: the first of a kind may pay for allocation and a cold cache.
constexpr int kTries = 2;

// The fastest forces time of kTries steps with `scheme`, in milliseconds; the caller restores the state.
double forces_milliseconds(Backend& backend, SimParams params, double time, ForceScheme scheme) {
  params.forces = scheme;
  double best = std::numeric_limits<double>::infinity();
  for (int t = 0; t < kTries; ++t) {
    backend.step(params, time);
    backend.synchronize();
    for (const KernelTiming& timing : backend.poll_timings())
      if (timing.kernel == KernelKind::Forces) best = std::min(best, timing.milliseconds);
  }
  return best;
}

template <class Records>
ForceChoice measure(Backend& backend, const SimParams& params, double time, const Records& saved) {
  const double one_sided = forces_milliseconds(backend, params, time, ForceScheme::OneSided);
  backend.upload(saved);
  const double mutual = forces_milliseconds(backend, params, time, ForceScheme::Mutual);
  backend.upload(saved);
  ForceChoice choice;
  choice.scheme = mutual < one_sided ? ForceScheme::Mutual : ForceScheme::OneSided;
  const double n = backend.particle_count();
  char line[200];
  std::snprintf(line, sizeof line,
                "forces %s (auto: one-sided %.3g, mutual %.3g interactions/s measured at N = %d)",
                std::string(to_string(choice.scheme)).c_str(), n * n / (one_sided * 1e-3), n * n / (mutual * 1e-3),
                backend.particle_count());
  choice.account = line;
  return choice;
}

}  // namespace

ForceChoice choose_forces(Backend& backend, const SimParams& params, double time, std::optional<ForceScheme> asked) {
  if (params.solver != Solver::AllPairs) return {};
  if (asked) return {*asked, "forces " + std::string(to_string(*asked))};
  // Records of the state's own precision: uploading them back is exact.
  if (backend.precision() == Precision::Fp64) return measure(backend, params, time, backend.download_f64());
  return measure(backend, params, time, backend.download());
}

}  // namespace coalesce
