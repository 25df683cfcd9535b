#include "sim/auto_choice.h"

#include <algorithm>
#include <optional>

namespace coalesce {
namespace {

// Tries alternate between the rows so that a clock or a neighbour changing mid-measurement hits all alike.
// At least kMinTries each (the first of a kind may pay for allocation and a cold cache), more while a row's
// timed total is under kEnoughMs (tiny N on a CPU takes microseconds a step), never more than kMaxTries.
constexpr int kMinTries = 2;
constexpr int kMaxTries = 16;
constexpr double kEnoughMs = 20.0;
// Another row must be this much faster than the first candidate to be kept: one-sided is the scheme the
// articles and peers run, and near the crossover a tie would otherwise be decided by noise.
constexpr double kMargin = 1.05;

struct RowTiming {
  KernelTiming fastest{};
  double total_ms = 0.0;
  int count = 0;
};

// One step with the backend's current method, its forces timing folded into `into`; the caller restores
// the state.
void time_one_step(Backend& backend, const SimParams& params, double time, RowTiming& into) {
  backend.step(params, time);
  backend.synchronize();
  for (const KernelTiming& timing : backend.poll_timings()) {
    if (timing.kernel != KernelKind::Forces) continue;
    into.total_ms += timing.milliseconds;
    if (into.count++ == 0 || timing.milliseconds < into.fastest.milliseconds) into.fastest = timing;
  }
}

}  // namespace

MeasuredForceMethod measure_force_methods(Backend& backend, ForceMethod family, const SimParams& params,
                                          double time) {
  const std::vector<ForceMethod> candidates = auto_candidates(family);
  backend.synchronize();
  (void)backend.poll_timings();
  std::vector<RowTiming> timings(candidates.size());
  const auto least_total = [&] {
    double least = timings.front().total_ms;
    for (const RowTiming& t : timings) least = std::min(least, t.total_ms);
    return least;
  };
  const ForceMethod before = backend.force_method();
  // Records of the state's own precision: uploading them back is exact, also when a step throws.
  with_records(backend, [&](const auto& saved) {
    try {
      for (int t = 0; t < kMaxTries; ++t) {
        if (t >= kMinTries && least_total() >= kEnoughMs) break;
        for (std::size_t i = 0; i < candidates.size(); ++i) {
          backend.set_force_method(candidates[i]);
          time_one_step(backend, params, time, timings[i]);
        }
      }
    } catch (...) {
      backend.upload(saved);
      backend.set_force_method(before);
      throw;
    }
    backend.upload(saved);
  });
  MeasuredForceMethod measured{candidates.front(), {}};
  double best = 0.0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const double rate = timings[i].fastest.interactions_per_second();
    measured.rates.push_back({candidates[i], rate});
    if (i == 0 || rate > kMargin * best) {
      measured.chosen = candidates[i];
      best = rate;
    }
  }
  backend.set_force_method(measured.chosen);
  return measured;
}

PackVariant Backend::preferred_pack_variant() {
  std::optional<PackVariant>& cached =
      m_fastest_pack[static_cast<std::size_t>(m_precision)][static_cast<std::size_t>(m_layout)];
  if (cached) return *cached;
  std::optional<double> best_ms;
  PackVariant best = PackVariant::Vector;
  for (PackVariant variant : kAllPackVariants) {
    const std::optional<double> ms = pack_median_ms(variant);
    if (!ms) return *(cached = PackVariant::Vector);  // one loop for every variant: nothing to choose
    if (!best_ms || *ms < *best_ms) {
      best_ms = ms;
      best = variant;
    }
  }
  ++m_pack_variant_timings;
  return *(cached = best);
}

}  // namespace coalesce
