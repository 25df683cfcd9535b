// The viewer's N when the user names none (issue 20): the largest N whose simulation step, measured at start
// with the real kernels and the force scheme the run will use, fits its share of a frame at the target rate
// (60 FPS on a GPU, 30 on a CPU). Then, once the window or context is open, the first frames are measured
// whole (issue 30): when the draw, the upload or copy path and the panel leave the frame over its budget,
// N is lowered until it fits, and the line says what limited it. --particles, --load-state, a scene file
// and --camera-from's N always win over it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/services/options.h"
#include "sim/scene.h"

namespace coalesce {

// One measurement: the mean time of a step (forces + integrate) at `particles`.
struct SizeTrial {
  int particles = 0;
  double step_ms = 0.0;
  std::string forces{};  // what was timed, as the run will use it: "forces mutual", "tree theta 0.18"; "" for
                         // attractors
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
  std::string frames{};  // the first frames' check (check_start_frames), once measured; "" before
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

// The frame budget of `rule` in milliseconds: a whole frame at its rate.
double frame_budget_ms(const SizeRule& rule);

// The first frames at one N, measured once the window or context is open: the median frame's work (each
// frame waited for, vsync's wait left out) and its step (the kernels' own timings), so that frame - step
// is what the draw, the upload or copy path and the panel cost.
struct FrameTrial {
  int particles = 0;
  double frame_ms = 0.0;
  double step_ms = 0.0;
};

struct FrameCheck {
  int particles = 0;    // the N to run: the last trial's when its frame fits
  bool settled = true;  // false: rebuild at `particles` and measure its frames again
  std::string reason;   // one line: what the frames measured and what limits N
};

// Pure: from the frame trials so far (the first at the N the step chose, then each lower N tried), whether
// the last one fits frame_budget_ms and, if not, the N that would: the step grows as N^exponent from the
// last trial, the rest (`rest_name`: "the draw and the copy path") as a + b N through the last two trials
// (b N alone from one). Never above the first trial's N; settles after `max_trials` trials, or when the
// rest's fixed part is over the budget by itself (then N is where the step and the rest's N-dependent part
// take the rule's step share of the frame).
FrameCheck check_start_frames(const std::vector<FrameTrial>& trials, const SizeRule& rule,
                              const std::string& rest_name, int max_trials = 3);

// Whether the viewer should choose N itself: nothing on the command line (or --camera-from) sets it and the
// scene is a preset.
bool chooses_start_size(const Options& options);

// The rule for `scene` on a GPU or on the CPU backend.
SizeRule start_size_rule(const Scene& scene, bool gpu);

}  // namespace coalesce
