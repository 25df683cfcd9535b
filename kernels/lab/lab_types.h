// Plain C++ types of the access-pattern lab, shared by the CLI, the panel's Lab tab and the tests.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "kernels/counters/hardware_counters.h"  // plain C++: the counter pass and its readings
#include "sim/backend.h"
#include "sim/precision.h"

namespace coalesce::lab {

// How big and how long: one value scales every experiment (docs/lab.md).
struct LabSettings {
  int side = 8192;             // transpose side; the smaller transpose is side / 2
  int repeats = 20;            // timed repeats per variant; the median is reported
  std::uint32_t seed = 12345;  // inputs are a hash of (seed, index): never zeros, fresh per run
  int warmup_calls = 30;       // warm-up: at least this many calls...
  double warmup_ms = 10.0;     // ...and about this much work (Nsight Compute runs set both low)
  bool counters = true;        // a counter pass per row after the timed one (--no-counters: none)
  // lab --precision: the particles experiment's records (fp64: 56-byte AoS, double SoA, double4_32a). The
  // other experiments keep their types: fp64-vectors is fp64, the rest fp32.
  Precision precision = Precision::Fp32;

  // 1-D experiments move 4 * side^2 floats per array (1 GiB at side 8192, far beyond the 50 MB L2).
  std::int64_t elements() const { return 4LL * side * side; }
};

// One measured variant of one experiment.
struct LabRow {
  std::string experiment;    // registry name, e.g. "transpose"
  std::string variant;       // e.g. "tiled+pad 8192^2"
  double time_ms = 0;        // median of the repeats
  double bytes = 0;          // bytes the byte formula counts
  double gbps = 0;           // bytes / time, 1 GB = 1e9 B
  double pct_copy = 0;       // gbps / copy ceiling * 100; negative when it does not apply (shared memory)
  std::string byte_formula;  // what `bytes` counts
  std::string article;       // the article's quoted figure and GPU, "" when the article quotes none
  std::string note;          // extra measured fact, e.g. "x3.9 vs 1-way"
  bool check_ok = false;     // the output matched the reference
  CounterReading counters;   // the hardware's counts of one launch, from a pass apart from the timed one
};

// What every experiment sees: the settings and the copy ceiling measured in the same run.
struct LabContext {
  LabSettings settings;
  double copy_gbps = 0;
  CounterPass* counter_pass = nullptr;  // null: no counters, for `counters_reason`
  std::string counters_reason;
};

// A row's timing (the median, in ms) and its counter pass. Reads as the time where a double is wanted.
struct TimedRow {
  double ms = 0;
  CounterReading counters;
  operator double() const { return ms; }  // NOLINT: the experiments compute with the time
};

// A registry entry: the CLI, the Lab tab and the tests all iterate the same list.
struct LabExperiment {
  std::string name;          // for --only
  std::string title;         // one line for the table and the tab
  std::string byte_formula;  // the experiment's byte formula, stated once
  std::string teaches;       // the idea, true on any GPU, one line
  std::string articles;      // the source articles' own figures, cited by article number
  // This run's figure, computed from the experiment's rows ("" when the rows needed are missing).
  std::function<std::string(const std::vector<LabRow>&)> measured;
  std::function<std::vector<LabRow>(const LabContext&)> run;
};

// The lesson as the user sees it: what the experiment teaches, what this run measured on this GPU (from
// the experiment's rows among `rows`), and the articles' figures beside it. Plain C++: the reports and
// their tests need no device.
inline std::string lab_lesson(const LabExperiment& experiment, const std::vector<LabRow>& rows) {
  std::vector<LabRow> own;
  for (const LabRow& row : rows)
    if (row.experiment == experiment.name) own.push_back(row);
  const std::string measured = experiment.measured ? experiment.measured(own) : std::string();
  return experiment.teaches + ". " +
         (measured.empty() ? std::string("Run it to measure this GPU") : "On this GPU: " + measured) +
         ". Articles: " + experiment.articles + ".";
}

// Called before each experiment (index from 0) and once more with index == count when all are done.
using LabProgress = std::function<void(int index, int count, const LabExperiment* experiment)>;

// One lab run: where, when, the ceiling it measured and every row.
struct LabRun {
  DeviceInfo device;     // kernels/device_probe.h's query_device_info, as the bench and the viewer report it
  LabSettings settings;
  std::string date_utc;  // ISO 8601
  double copy_gbps = 0;
  std::vector<LabRow> rows;
  std::string counters_reason;  // why no row has counters ("" when the counter pass ran)
};

// A row with GB/s and % of copy derived from the time, the byte count and the run's copy ceiling.
inline LabRow make_row(const LabContext& context, std::string experiment, std::string variant, double time_ms,
                       double bytes, std::string byte_formula, std::string article, bool check_ok) {
  LabRow row;
  row.experiment = std::move(experiment);
  row.variant = std::move(variant);
  row.time_ms = time_ms;
  row.bytes = bytes;
  row.gbps = time_ms > 0 ? bytes / (time_ms * 1e6) : 0;
  row.pct_copy = context.copy_gbps > 0 ? 100.0 * row.gbps / context.copy_gbps : -1;
  row.byte_formula = std::move(byte_formula);
  row.article = std::move(article);
  row.check_ok = check_ok;
  return row;
}

// The same, from a timed row: its median time and its counters.
inline LabRow make_row(const LabContext& context, std::string experiment, std::string variant,
                       const TimedRow& timed, double bytes, std::string byte_formula, std::string article,
                       bool check_ok) {
  LabRow row = make_row(context, std::move(experiment), std::move(variant), timed.ms, bytes,
                        std::move(byte_formula), std::move(article), check_ok);
  row.counters = timed.counters;
  return row;
}

}  // namespace coalesce::lab
