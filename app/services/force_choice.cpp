#include "app/services/force_choice.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

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
// Another row must be this much faster than the first candidate to be kept: one-sided is the scheme the
// articles and peers run, and near the crossover a tie would otherwise be decided by noise.
constexpr double kMargin = 1.05;

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

std::string describe(ForceMethod chosen, const std::vector<ForceMethod>& candidates,
                     const std::vector<SchemeTiming>& timings, const Backend& backend) {
  std::string measured;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.3g", timings[i].fastest.interactions_per_second());
    measured += (i > 0 ? ", " : "") + std::string(method_info(candidates[i]).forces_name) + " " + rate;
  }
  return "forces " + std::string(method_info(chosen).forces_name) + " (auto: " + measured +
         " interactions/s measured at N = " + std::to_string(backend.particle_count()) + ", " +
         std::string(to_string(backend.precision())) + " " + std::string(to_string(backend.layout())) + ")";
}

}  // namespace

std::string forces_without_all_pairs(const std::string& run, const std::string& fix) {
  return "--forces picks the all-pairs scheme, but " + run +
         " runs only the attractors solver, which has none (" + fix + ")";
}

ForceChoice sliced_forces(const SimParams& params, std::optional<ForceScheme> asked) {
  if (!has_forces_choice(method_of(params.solver))) return {};
  if (asked && !method_info(method_of(params.solver, *asked)).rank_slices)
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
  // The family's exact rows, in table order: the first is kept unless another is clearly faster.
  const std::vector<ForceMethod> candidates = auto_candidates(method_of(params.solver));
  std::vector<SchemeTiming> timings(candidates.size());
  const auto least_total = [&] {
    double least = timings.front().total_ms;
    for (const SchemeTiming& t : timings) least = std::min(least, t.total_ms);
    return least;
  };
  // Records of the state's own precision: uploading them back is exact, also when a step throws.
  with_records(backend, [&](const auto& saved) {
    try {
      for (int t = 0; t < kMaxTries; ++t) {
        if (t >= kMinTries && least_total() >= kEnoughMs) break;
        for (std::size_t i = 0; i < candidates.size(); ++i)
          time_one_step(backend, params, time, scheme_of(candidates[i]), timings[i]);
      }
    } catch (...) {
      backend.upload(saved);
      throw;
    }
    backend.upload(saved);
  });
  std::size_t chosen = 0;
  for (std::size_t i = 1; i < candidates.size(); ++i)
    if (timings[i].fastest.interactions_per_second() >
        kMargin * timings[chosen].fastest.interactions_per_second())
      chosen = i;
  return {scheme_of(candidates[chosen]), describe(candidates[chosen], candidates, timings, backend)};
}

}  // namespace coalesce
