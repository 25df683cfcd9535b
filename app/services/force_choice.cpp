#include "app/services/force_choice.h"

#include <cstdio>
#include <algorithm>

namespace coalesce {

namespace {

// Tries alternate between the schemes so that a clock or a neighbour changing mid-measurement hits both alike.
// At least kMinTries each (the first of a kind may pay for allocation and a cold cache), more while a scheme's
// timed total is under kEnoughMs (tiny N on a CPU takes microseconds a step), never more than kMaxTries.
constexpr int kMinTries = 2;
constexpr int kMaxTries = 16;
constexpr double kEnoughMs = 20.0;
// Mutual must be this much faster to be kept: one-sided is the scheme the articles and peers run, and near
// the crossover a tie would otherwise be decided by noise.
constexpr double kMutualMargin = 1.05;

struct SchemeTiming {
  KernelTiming fastest{};
  double total_ms = 0.0;
};

// One step with `scheme`, its forces timing folded into `into`; the caller restores the state.
void time_one_step(Backend& backend, SimParams params, double time, ForceScheme scheme, SchemeTiming& into) {
  params.forces = scheme;
  backend.step(params, time);
  backend.synchronize();
  for (const KernelTiming& timing : backend.poll_timings()) {
    if (timing.kernel != KernelKind::Forces) continue;
    into.total_ms += timing.milliseconds;
    if (into.total_ms == timing.milliseconds || timing.milliseconds < into.fastest.milliseconds) into.fastest = timing;
  }
}

}  // namespace

ForceChoice choose_forces(Backend& backend, const SimParams& params, double time, std::optional<ForceScheme> asked) {
  if (params.solver != Solver::AllPairs) return {};
  if (asked) return {*asked, "forces " + std::string(to_string(*asked))};
  SchemeTiming one_sided, mutual;
  // Records of the state's own precision: uploading them back is exact.
  with_records(backend, [&](const auto& saved) {
    for (int t = 0; t < kMaxTries; ++t) {
      if (t >= kMinTries && std::min(one_sided.total_ms, mutual.total_ms) >= kEnoughMs) break;
      time_one_step(backend, params, time, ForceScheme::OneSided, one_sided);
      time_one_step(backend, params, time, ForceScheme::Mutual, mutual);
    }
    backend.upload(saved);
  });
  const double one_sided_rate = one_sided.fastest.interactions_per_second();
  const double mutual_rate = mutual.fastest.interactions_per_second();
  ForceChoice choice;
  choice.scheme = mutual_rate > kMutualMargin * one_sided_rate ? ForceScheme::Mutual : ForceScheme::OneSided;
  char line[200];
  std::snprintf(line, sizeof line, "forces %s (auto: one-sided %.3g, mutual %.3g interactions/s measured at N = %d)",
                std::string(to_string(choice.scheme)).c_str(), one_sided_rate, mutual_rate, backend.particle_count());
  choice.account = line;
  return choice;
}

}  // namespace coalesce
