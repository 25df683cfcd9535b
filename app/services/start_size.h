// The viewer's N when the user names none (issue 20): the largest N whose simulation step, measured at start
// with the real kernels on this machine, fits its share of a frame at the target rate (60 FPS on a GPU, 30 on
// a CPU). --particles, --load-state, a scene file and --camera-from's N always win over it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/services/options.h"
#include "sim/scene.h"

namespace coalesce {

// One measurement: the mean time of a step (forces + integrate) and of a render-buffer pack at `particles`.
struct SizeTrial {
  int particles = 0;
  double step_ms = 0.0;
};

struct SizeRule {
  double frames_per_second = 60.0;  // the rate the viewer should hold
  double step_share = 0.5;          // of a frame, for the step: the draw, the panel and the upload take the rest
  int exponent = 2;                 // how a step grows with N: 2 for all-pairs, 1 for attractors
  int granularity = 256;            // N is a multiple of this (at least one)
  int max_particles = 1 << 24;      // no larger, whatever the step allows
};

struct SizeChoice {
  int particles = 0;
  std::string reason;  // one line: the measurement and the rule behind the number
};

// The step budget of `rule` in milliseconds.
double step_budget_ms(const SizeRule& rule);

// Pure: from `trials` (any order), the largest trial within the budget, grown by the rule's exponent to the
// budget itself and rounded down to the granularity (never beyond the first trial over the budget, nor
// max_particles); when even the smallest trial is over, that smallest N.
SizeChoice choose_start_size(const std::vector<SizeTrial>& trials, const SizeRule& rule);

// Measures `trials` by doubling N from `first` until a step exceeds the budget or max_particles is passed;
// `measure(n)` returns the step time at n. At most `max_trials` measurements.
std::vector<SizeTrial> measure_doubling(int first, const SizeRule& rule,
                                        const std::function<double(int)>& measure, int max_trials = 20);

// Whether the viewer should choose N itself: nothing on the command line (or --camera-from) sets it and the
// scene is a preset.
bool chooses_start_size(const Options& options);

// The rule for `scene` on a GPU or on the CPU backend.
SizeRule start_size_rule(const Scene& scene, bool gpu);

}  // namespace coalesce
