#include "app/services/force_choice.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "sim/errors.h"
#include "sim/force_method.h"

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
  int count = 0;
};

// One step with `scheme`, its forces timing folded into `into`; the caller restores the state.
void time_one_step(Backend& backend, SimParams params, double time, ForceScheme scheme, SchemeTiming& into) {
  params.forces = scheme;
  backend.step(params, time);
  backend.synchronize();
  for (const KernelTiming& timing : backend.poll_timings()) {
    if (timing.kernel != KernelKind::Forces) continue;
    into.total_ms += timing.milliseconds;
    if (into.count++ == 0 || timing.milliseconds < into.fastest.milliseconds) into.fastest = timing;
  }
}

std::string describe(ForceScheme chosen, const SchemeTiming& one_sided, const SchemeTiming& mutual,
                     const Backend& backend) {
  char line[240];
  std::snprintf(line, sizeof line,
                "forces %s (auto: one-sided %.3g, mutual %.3g interactions/s measured at N = %d, %s %s)",
                std::string(to_string(chosen)).c_str(), one_sided.fastest.interactions_per_second(),
                mutual.fastest.interactions_per_second(), backend.particle_count(),
                std::string(to_string(backend.precision())).c_str(),
                std::string(to_string(backend.layout())).c_str());
  return line;
}

}  // namespace

std::string forces_without_all_pairs(const std::string& run, const std::string& fix) {
  return "--forces picks the all-pairs scheme, but " + run +
         " runs only the attractors solver, which has none (" + fix + ")";
}

ForceChoice sliced_forces(const SimParams& params, std::optional<ForceScheme> asked) {
  if (!has_forces_choice(method_of(params.solver))) return {};
  if (asked == ForceScheme::Mutual)
    throw UsageError("--forces mutual evaluates each pair once for both bodies, which ranks holding slices "
                     "cannot; under mpirun use --forces one-sided or auto");
  if (asked) return {*asked, "forces " + std::string(to_string(*asked))};
  return {ForceScheme::OneSided, "forces one-sided (auto: a mutual pair would span two ranks)"};
}

ForceChoice choose_forces(Backend& backend, const SimParams& params, double time, std::optional<ForceScheme> asked) {
  if (!has_forces_choice(method_of(params.solver))) return {};
  if (asked) return {*asked, "forces " + std::string(to_string(*asked))};
  // Timings queued before this call (a viewer frame's last step) are not the measurement's.
  backend.synchronize();
  (void)backend.poll_timings();
  SchemeTiming one_sided, mutual;
  // Records of the state's own precision: uploading them back is exact, also when a step throws.
  with_records(backend, [&](const auto& saved) {
    try {
      for (int t = 0; t < kMaxTries; ++t) {
        if (t >= kMinTries && std::min(one_sided.total_ms, mutual.total_ms) >= kEnoughMs) break;
        time_one_step(backend, params, time, ForceScheme::OneSided, one_sided);
        time_one_step(backend, params, time, ForceScheme::Mutual, mutual);
      }
    } catch (...) {
      backend.upload(saved);
      throw;
    }
    backend.upload(saved);
  });
  const bool mutual_wins =
      mutual.fastest.interactions_per_second() > kMutualMargin * one_sided.fastest.interactions_per_second();
  const ForceScheme chosen = mutual_wins ? ForceScheme::Mutual : ForceScheme::OneSided;
  return {chosen, describe(chosen, one_sided, mutual, backend)};
}

}  // namespace coalesce
