// The bench's plan (what to sweep) and its results (one row per kernel x layout x N x variant).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/counters/hardware_counters.h"  // plain C++: CounterReading
#include "sim/backend.h"
#include "sim/cpu_target.h"
#include "sim/force_method.h"
#include "sim/force_error.h"
#include "sim/layout.h"
#include "sim/precision.h"
#include "sim/tree_settings.h"

namespace coalesce {

struct BenchPlan {
  std::vector<ForceMethod> methods;  // rows measured, in table order; a family's rows share one state
  std::array<std::vector<int>, kForceMethodCount> particles;  // N of each family's rows, at its first row
  std::vector<Layout> layouts;
  std::vector<Precision> precisions{Precision::Fp32};
  std::optional<CpuTarget> cpu_target;  // the CPU backend's SIMD target (--cpu-target); none: the widest
  TreeSettings tree;                    // the tree rows' (--theta)
  int repeats = 20;
  // CPU default: at least min_repeats timed calls, then more until `repeats` or repeat_budget_ms of them,
  // so slow rows stay short and fast rows get many samples; 0: exactly `repeats`.
  int min_repeats = 0;
  double repeat_budget_ms = 0;
  int warmup_calls = 30;      // at least this many calls...
  double warmup_ms = 10.0;    // ...and at least this much work before timing (timing hygiene, docs/perf.md)
  int slow_warmup_calls = 3;  // ...except that a slow call (>= 20 x warmup_ms) warms up this many times only
  bool counters = true;       // a counter pass per row after the timed one (--no-counters: none)

  const std::vector<int>& particles_of(ForceMethod method) const {
    return particles[static_cast<std::size_t>(family_of(method))];
  }
};

// A tree row's own report: its settings, counts and stage split of the last timed step, and its error
// against the float64 direct sum on kErrorTargets random bodies (sim/force_error.h) after the timing.
struct TreeBench {
  TreeReport report;
  ForceErrors errors;
  std::uint64_t seed = 0;  // of the sampled targets
};

struct BenchRow {
  ForceMethod solver;  // the family, as its first row: JSON "solver" is its solver_name
  int particles;
  Layout layout;
  std::string kernel;   // forces, integrate, pack, convert
  std::string variant;  // pack: the variant; convert: "to <layout>"; otherwise empty
  int samples;
  double median_ms, min_ms, max_ms;
  double cv_percent;  // 100 x standard deviation / mean of the samples (app/bench/bench_stats.h)
  bool noisy;         // cv_percent above kNoisyCvPercent
  double bytes;  // sim/byte_counts.h formula for this kernel and layout
  double gbps;   // bytes / median time
  double percent_of_copy;  // of the copy ceiling, kept for runs before the ceilings; percent_of_ceiling is
                           // the figure
  double interactions;  // forces only
  double interactions_per_second;
  CounterReading counters;  // the hardware's counts of one call, from a pass apart from the timed one
  Precision precision = Precision::Fp32;  // of the state the row's kernel read and wrote
  double pair_evaluations_per_second = 0;  // all-pairs forces only: pairs the scheme evaluates / median time
  // The memory ceiling the row is compared with (sim/memory_ceiling.h: "copy", "in-place", "to-other") and
  // its share of it; "" and 0 for the compute-bound all-pairs forces.
  std::string ceiling{};
  double percent_of_ceiling = 0;
  double ceiling_gbps = 0;  // the GB/s percent_of_ceiling divides by; 0 with no ceiling
  // Bytes one timed pass of that ceiling moved (read + written): the row's own bytes when the row moves
  // fewer than the start-up ceiling, else the start-up ceiling's; none on a GPU (its copy is the device's).
  std::optional<double> ceiling_bytes{};
  // The row's working set (the ceiling's two buffers) fits in the last-level cache: the row runs from the
  // cache, against a ceiling of its own size. None on a GPU or when the cache's size is unknown.
  std::optional<bool> from_cache{};
  double scratch_bytes = 0;  // of `bytes`: the partial sums written and read back (all-pairs forces), else 0
  std::optional<TreeBench> tree{};  // tree forces rows only
};

struct BenchResult {
  std::string backend_name;
  DeviceInfo device;
  std::string command_line;
  std::string date_utc;
  BenchPlan plan;
  std::vector<BenchRow> rows;
  std::string counters_reason;  // why no row has counters ("" when the counter pass ran)
};

}  // namespace coalesce
