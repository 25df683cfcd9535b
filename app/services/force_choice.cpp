#include "app/services/force_choice.h"

#include <cstdio>
#include <limits>

namespace coalesce {

namespace {

// Timed tries per scheme, the fastest kept: the first of a kind may pay for allocation and a cold cache.
constexpr int kTries = 2;

// The fastest forces timing of kTries steps with `scheme`; the caller restores the state.
KernelTiming fastest_forces(Backend& backend, SimParams params, double time, ForceScheme scheme) {
  params.forces = scheme;
  KernelTiming best{};
  best.milliseconds = std::numeric_limits<double>::infinity();
  for (int t = 0; t < kTries; ++t) {
    backend.step(params, time);
    backend.synchronize();
    for (const KernelTiming& timing : backend.poll_timings())
      if (timing.kernel == KernelKind::Forces && timing.milliseconds < best.milliseconds) best = timing;
  }
  return best;
}

}  // namespace

ForceChoice choose_forces(Backend& backend, const SimParams& params, double time, std::optional<ForceScheme> asked) {
  if (params.solver != Solver::AllPairs) return {};
  if (asked) return {*asked, "forces " + std::string(to_string(*asked))};
  KernelTiming one_sided{}, mutual{};
  // Records of the state's own precision: uploading them back is exact.
  with_records(backend, [&](const auto& saved) {
    one_sided = fastest_forces(backend, params, time, ForceScheme::OneSided);
    backend.upload(saved);
    mutual = fastest_forces(backend, params, time, ForceScheme::Mutual);
    backend.upload(saved);
  });
  ForceChoice choice;
  choice.scheme = mutual.milliseconds < one_sided.milliseconds ? ForceScheme::Mutual : ForceScheme::OneSided;
  char line[200];
  std::snprintf(line, sizeof line, "forces %s (auto: one-sided %.3g, mutual %.3g interactions/s measured at N = %d)",
                std::string(to_string(choice.scheme)).c_str(), one_sided.interactions_per_second(),
                mutual.interactions_per_second(), backend.particle_count());
  choice.account = line;
  return choice;
}

}  // namespace coalesce
