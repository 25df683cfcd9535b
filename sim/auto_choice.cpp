#include "sim/auto_choice.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

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

// A probe's kick is timed until it takes this long (or covers every body), so its rate is the backend's
// and not a launch's overhead; it starts at kProbeBodies targets and grows fourfold.
constexpr double kProbeEnoughMs = 20.0;
constexpr int kProbeBodies = 256;
constexpr int kProbeBodiesPerSm = 1024;

bool stop_requested(const AutoLimits& limits) {
  return limits.stop && limits.stop();
}

// Milliseconds of the forces of a kick of targets [0, targets) by every source, from the backend's timings.
double kick_ms(Backend& backend, const SimParams& params, double time, int targets) {
  backend.step_range(params, time, 0, targets);
  backend.synchronize();
  double ms = 0.0;
  for (const KernelTiming& timing : backend.poll_timings())
    if (timing.kernel == KernelKind::Forces) ms += timing.milliseconds;
  return ms;
}

// Seconds one step of the first row (which slices, app/ranks) takes at the whole N, predicted from the kick
// of a growing slice of targets by every source; none when a stop signal ended the probe. The first slice
// runs untimed (a first step allocates), and on a GPU a slice counts only from 1,024 targets a
// multiprocessor: 256 targets of 4M sources ran 67 times slower a target than the whole step (H200,
// 2026-11-28). The caller puts the state back.
std::optional<double> predicted_step_seconds(Backend& backend, const SimParams& params, double time,
                                             const AutoLimits& limits) {
  const int n = backend.particle_count();
  const DeviceInfo& device = backend.device_info();
  const int filled = device.gpu ? std::min(n, std::max(1, device.multiprocessors) * kProbeBodiesPerSm) : 0;
  (void)kick_ms(backend, params, time, std::min(n, kProbeBodies));
  for (int targets = std::min(n, kProbeBodies);; targets = std::min(n, targets * 4)) {
    if (stop_requested(limits)) return std::nullopt;
    const double ms = kick_ms(backend, params, time, targets);
    if ((ms >= kProbeEnoughMs && targets >= filled) || targets == n)
      return ms * 1e-3 * static_cast<double>(n) / targets;
  }
}

std::string seconds_text(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g s", seconds);
  return text;
}

// A step of any other row takes at most this many of the first row's. On the CPU the slowest measured,
// mutual, took 5.4 one-sided steps (2 cores of an EPYC, N = 50,000, 2026-11-28). On a GPU mutual took 0.33 at
// N = 262,144 (H200, the same day); 2 leaves room for small N, where its atomics weigh more.
constexpr double kSlowestRowStepsCpu = 8.0;
constexpr double kSlowestRowStepsGpu = 2.0;

// How many alternating tries of each row the budget allows (0: none), from the first row's predicted step,
// counting every other row at its slowest.
int tries_within(const AutoLimits& limits, double step_seconds, std::size_t rows, bool gpu) {
  const double slowest = gpu ? kSlowestRowStepsGpu : kSlowestRowStepsCpu;
  const double per_try = step_seconds * (1.0 + slowest * static_cast<double>(rows - 1));
  for (int tries = kMinTries; tries >= 1; --tries)
    if (per_try * tries <= limits.budget_seconds) return tries;
  return 0;
}

}  // namespace

MeasuredForceMethod measure_force_methods(Backend& backend, ForceMethod family, const SimParams& params,
                                          double time, const AutoLimits& limits) {
  const std::vector<ForceMethod> candidates = auto_candidates(family);
  const ForceMethod before = backend.force_method();
  if (!limits.measure) {
    backend.set_force_method(candidates.front());
    return {candidates.front(), {}, "nothing measured: no step runs"};
  }
  backend.synchronize();
  (void)backend.poll_timings();
  std::vector<RowTiming> timings(candidates.size());
  const auto least_total = [&] {
    double least = timings.front().total_ms;
    for (const RowTiming& t : timings) least = std::min(least, t.total_ms);
    return least;
  };
  const auto spent_ms = [&] {
    double spent = 0.0;
    for (const RowTiming& t : timings) spent += t.total_ms;
    return spent;
  };
  std::string unmeasured;
  // Records of the state's own precision: uploading them back is exact, also when a step throws.
  with_records(backend, [&](const auto& saved) {
    try {
      backend.set_force_method(candidates.front());
      const std::optional<double> step_seconds = predicted_step_seconds(backend, params, time, limits);
      const int min_tries =
          step_seconds ? tries_within(limits, *step_seconds, candidates.size(), backend.device_info().gpu)
                       : 0;
      if (!step_seconds)
        unmeasured = "not measured: a stop signal came";
      else if (min_tries == 0)
        unmeasured = "not measured: a one-sided step takes about " + seconds_text(*step_seconds) +
                     " here, and timing each scheme could take past auto's " +
                     seconds_text(limits.budget_seconds);
      for (int t = 0; unmeasured.empty() && t < kMaxTries; ++t) {
        if (t >= min_tries && least_total() >= kEnoughMs) break;
        if (t >= min_tries && spent_ms() * 1e-3 * (t + 1) / t > limits.budget_seconds) break;
        for (std::size_t i = 0; i < candidates.size() && unmeasured.empty(); ++i) {
          if (stop_requested(limits)) unmeasured = "not measured: a stop signal came";
          backend.set_force_method(candidates[i]);
          if (unmeasured.empty()) time_one_step(backend, params, time, timings[i]);
        }
      }
    } catch (...) {
      backend.upload(saved);
      backend.set_force_method(before);
      throw;
    }
    backend.upload(saved);
  });
  if (!unmeasured.empty()) {
    backend.set_force_method(candidates.front());
    return {candidates.front(), {}, unmeasured};
  }
  MeasuredForceMethod measured{candidates.front(), {}, {}};
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
