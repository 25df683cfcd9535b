// coalesce bench --compare A.json B.json: two saved runs, row by row (docs/bench-json.md, "Comparing two
// runs"). Pure: reads nothing, runs nothing; the command (bench_command.cpp) reads the files.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "app/bench/bench_file.h"

namespace coalesce {

// The run-to-run drift a row's own coefficient of variation cannot see: clocks, boost, placement of the
// buffers and the process on the machine. Two runs of one build on one GPU move by this much anyway, so no
// band is narrower. In percent.
inline constexpr double kCompareFloorPercent = 2.0;
// How many combined spreads a difference must exceed to count: 3 sigma.
inline constexpr double kCompareSpreads = 3.0;
// The jitter between processes of calls that take a few microseconds: with held launches, medians of the
// same rows in separate runs of one build on an H100 moved by up to 0.83 us (2026-11-23, docs/capture.md).
// A difference of the medians below this is never a change, in microseconds.
inline constexpr double kCompareFloorMicroseconds = 1.0;

// CPU rows (either run on the CPU backend): other processes share the cores, and only slow a row down. On
// 2 shared cores, identical runs moved a row's median by up to 1.8x and calls of a few microseconds between
// 7 and 50 us, as the pool's second thread waited for a core (docs/bench-json.md); on the CI machine with
// nothing else running, a whole run's pack rows came out 1.7-1.8x slower, fastest samples too. So a CPU row
// changes only when its median and its fastest sample both moved, the same way, by more than this (percent
// of the faster time: 150 = 2.5x; a 3x change clears it)...
inline constexpr double kCompareCpuFloorPercent = 150.0;
// ...and its median by more than this, in microseconds: a thread pool's wake-up on a busy core.
inline constexpr double kCompareCpuFloorMicroseconds = 100.0;

enum class Verdict { Faster, Slower, Same };
const char* to_string(Verdict verdict);

// The noise band of a row, in percent: max(kCompareFloorPercent, kCompareSpreads x sqrt(cv_a^2 + cv_b^2)),
// cv being each run's cv_percent for the row.
double noise_band_percent(double cv_a_percent, double cv_b_percent);
// Every sample of one run is faster than every sample of the other: [min_ms, max_ms] do not overlap.
bool sample_ranges_apart(const BenchRow& a, const BenchRow& b);
// The one verdict rule: B differs from A when its median time moved by more than kCompareFloorMicroseconds
// and by more than kCompareFloorPercent, and either beyond the spreads (kCompareSpreads x sqrt(cv_a^2 +
// cv_b^2)) or with the sample ranges apart; then B/A > 1 is faster, < 1 slower; else the same.
// With `cpu`, the CPU rule instead: the medians more than kCompareCpuFloorMicroseconds apart, and both the
// medians and the fastest samples (min_ms) more than kCompareCpuFloorPercent apart, the same way.
Verdict compare_verdict(const BenchRow& a, const BenchRow& b, bool cpu = false);

struct ComparedRow {
  BenchRow a;
  BenchRow b;
  double ratio = 1;         // B/A of the headline: A's median time / B's
  double band_percent = 0;  // noise_band_percent(a.cv_percent, b.cv_percent)
  double microseconds = 0;  // |B's median - A's|
  bool ranges_apart = false;  // sample_ranges_apart(a, b)
  bool cpu = false;           // compared by the CPU rule
  Verdict verdict = Verdict::Same;
};

struct Comparison {
  std::vector<std::string> notes;  // differences between the runs' machines and methods, one line each
  std::vector<ComparedRow> rows;   // in A's order
  std::vector<BenchRow> only_in_a;
  std::vector<BenchRow> only_in_b;
  int count(Verdict verdict) const;
};

// Rows match by (solver, particles, layout, kernel, variant). Throws UsageError when a file holds one key
// twice (no bench run writes that).
Comparison compare_runs(const SavedBench& a, const SavedBench& b);

void print_comparison(const Comparison& comparison, const SavedBench& a, const SavedBench& b, std::FILE* out);
// Schema coalesce-bench-compare/1 (docs/bench-json.md).
std::string comparison_json(const Comparison& comparison, const SavedBench& a, const SavedBench& b);

}  // namespace coalesce
