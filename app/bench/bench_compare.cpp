// Two saved bench runs compared row by row: the verdict rule, the notes on how the runs differ, the table
// and the JSON (schema coalesce-bench-compare/1, docs/bench-json.md).
#include "app/bench/bench_compare.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>

#include <nlohmann/json.hpp>

#include "sim/errors.h"
#include "sim/limits.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

// solver, N, layout, precision (-1: matched across precisions), kernel, variant, theta (-1: no tree): a
// tree row at another theta is another measurement (another error), never compared as the same row.
using RowKey = std::tuple<int, int, int, int, std::string, std::string, double>;

RowKey key_of(const BenchRow& row, bool with_precision = true) {
  return {static_cast<int>(row.solver),
          row.particles,
          static_cast<int>(row.layout),
          with_precision ? static_cast<int>(row.precision) : -1,
          row.kernel,
          row.variant,
          row.tree ? row.tree->report.settings.theta : -1.0};
}

// The one precision all of a run's rows have, if they have one.
std::optional<Precision> only_precision(const SavedBench& saved) {
  std::optional<Precision> only;
  for (const BenchRow& row : saved.run.rows) {
    if (only && *only != row.precision) return std::nullopt;
    only = row.precision;
  }
  return only;
}

std::string row_name(const BenchRow& row) {
  std::string name = std::string(method_info(row.solver).solver_name) + " " + std::to_string(row.particles) +
                     " " + std::string(to_string(row.layout)) + " " + std::string(to_string(row.precision)) +
                     " " + row.kernel;
  if (!row.variant.empty()) name += " " + row.variant;
  if (row.tree) name += " theta " + exact_text(row.tree->report.settings.theta);
  return name;
}

std::map<RowKey, const BenchRow*> index_rows(const SavedBench& saved, const char* which, bool with_precision) {
  std::map<RowKey, const BenchRow*> index;
  for (const BenchRow& row : saved.run.rows)
    if (!index.emplace(key_of(row, with_precision), &row).second)
      throw UsageError("--compare '" + saved.path + "' (" + which + "): row '" + excerpt(row_name(row), 120) +
                       "' appears twice (give a file written by coalesce bench --json)");
  return index;
}

// "cuda (NVIDIA H100 80GB HBM3)" -> "cuda": the backend alone; the device has its own note.
std::string backend_kind(const std::string& backend) {
  return backend.substr(0, backend.find(" ("));
}

double percent_apart(double a, double b) {
  return 100.0 * std::abs(b / a - 1.0);
}

std::vector<std::string> run_notes(const SavedBench& a, const SavedBench& b) {
  std::vector<std::string> notes;
  const DeviceInfo& da = a.run.device;
  const DeviceInfo& db = b.run.device;
  const auto differ = [&](const std::string& what, const std::string& va, const std::string& vb,
                          const std::string& why) {
    if (va != vb)
      notes.push_back("different " + what + ": A " + (va.empty() ? "-" : printable(va)) + ", B " +
                      (vb.empty() ? "-" : printable(vb)) + why);
  };
  differ("GPUs", da.name, db.name, " (the rows compare machines as well as code)");
  differ("drivers", da.driver, db.driver, "");
  differ("backends", backend_kind(a.run.backend_name), backend_kind(b.run.backend_name), "");
  if (da.copy_peak_gbps > 0 && db.copy_peak_gbps > 0 &&
      percent_apart(da.copy_peak_gbps, db.copy_peak_gbps) > kCompareFloorPercent) {
    char line[200];
    std::snprintf(line, sizeof line,
                  "copy ceilings %.1f%% apart: A %.0f GB/s, B %.0f GB/s (beyond the %.0f%% floor: the memory "
                  "system itself ran differently)",
                  percent_apart(da.copy_peak_gbps, db.copy_peak_gbps), da.copy_peak_gbps, db.copy_peak_gbps,
                  kCompareFloorPercent);
    notes.emplace_back(line);
  }
  const auto clock_note = [&](const char* name, const std::optional<double>& ca,
                              const std::optional<double>& cb) {
    if (!ca || !cb || *ca <= 0 || percent_apart(*ca, *cb) <= kCompareFloorPercent) return;
    char line[200];
    std::snprintf(line, sizeof line,
                  "%s clocks %.1f%% apart: A %.0f MHz, B %.0f MHz (measured by the counters)", name,
                  percent_apart(*ca, *cb), *ca, *cb);
    notes.emplace_back(line);
  };
  clock_note("SM", a.sm_mhz, b.sm_mhz);
  clock_note("memory", a.memory_mhz, b.memory_mhz);
  const bool clocks_a = a.sm_mhz || a.memory_mhz;
  const bool clocks_b = b.sm_mhz || b.memory_mhz;
  if (clocks_a != clocks_b)
    notes.push_back(std::string("clocks measured in ") + (clocks_a ? "A" : "B") +
                    " only (the other ran without counters): whether both ran at the same clocks is unknown");
  if (a.run.plan.repeats != b.run.plan.repeats)
    notes.push_back("different repeats: A " + std::to_string(a.run.plan.repeats) + ", B " +
                    std::to_string(b.run.plan.repeats) + " (fewer repeats, wider spread)");
  return notes;
}

std::string value_text(const BenchRow& row) {
  char text[48];
  if (headline_is_interactions(row))
    std::snprintf(text, sizeof text, "%.3e int/s", row.interactions_per_second);
  else
    std::snprintf(text, sizeof text, "%.1f GB/s", row.gbps);
  return text;
}

nlohmann::json row_key_json(const BenchRow& row) {
  return {{"solver", std::string(method_info(row.solver).solver_name)},
          {"particles", row.particles},
          {"layout", to_string(row.layout)},
          {"precision", to_string(row.precision)},
          {"kernel", row.kernel},
          {"variant", row.variant}};
}

nlohmann::json side_json(const BenchRow& row) {
  return {{"value", headline_value(row)},
          {"median_ms", row.median_ms},
          {"cv_percent", row.cv_percent},
          {"samples", row.samples}};
}

nlohmann::json input_json(const SavedBench& saved) {
  const BenchResult& r = saved.run;
  nlohmann::json clocks = nullptr;
  if (saved.sm_mhz || saved.memory_mhz)
    clocks = {{"sm_mhz", saved.sm_mhz ? nlohmann::json(*saved.sm_mhz) : nlohmann::json(nullptr)},
              {"memory_mhz", saved.memory_mhz ? nlohmann::json(*saved.memory_mhz) : nlohmann::json(nullptr)}};
  return {{"path", saved.path},        {"device", r.device.name},
          {"driver", r.device.driver}, {"backend", r.backend_name},
          {"date_utc", r.date_utc},    {"command_line", r.command_line},
          {"repeats", r.plan.repeats}, {"copy_peak_gbps", r.device.copy_peak_gbps},
          {"clocks", clocks},          {"rows", r.rows.size()}};
}

}  // namespace

const char* to_string(Verdict verdict) {
  switch (verdict) {
    case Verdict::Faster:
      return "faster";
    case Verdict::Slower:
      return "slower";
    case Verdict::Same:
      return "same";
  }
  return "?";
}

namespace {

// kCompareSpreads combined spreads of the two runs' samples, in percent.
double spread_percent(double cv_a_percent, double cv_b_percent) {
  return kCompareSpreads * std::hypot(cv_a_percent, cv_b_percent);
}

// How far apart two times are, in percent of the faster: 100 for 2x either way.
double percent_of_faster(double a_ms, double b_ms) {
  return 100.0 * (std::max(a_ms, b_ms) / std::min(a_ms, b_ms) - 1.0);
}

// The CPU rule (kCompareCpuFloorPercent): interference only adds time, so the fastest samples must move too.
Verdict cpu_verdict(const ComparedRow& c) {
  const BenchRow& a = c.a;
  const BenchRow& b = c.b;
  const bool moved = c.microseconds > kCompareCpuFloorMicroseconds &&
                     percent_of_faster(a.median_ms, b.median_ms) > kCompareCpuFloorPercent &&
                     a.min_ms > 0 && b.min_ms > 0 &&
                     percent_of_faster(a.min_ms, b.min_ms) > kCompareCpuFloorPercent &&
                     (a.median_ms > b.median_ms) == (a.min_ms > b.min_ms);
  return !moved ? Verdict::Same : c.ratio > 1.0 ? Verdict::Faster : Verdict::Slower;
}

// Every number the verdict rests on, worked out once, and the verdict from them.
ComparedRow compared(const BenchRow& a, const BenchRow& b, bool cpu) {
  ComparedRow c;
  c.a = a;
  c.b = b;
  c.cpu = cpu;
  // The same kernel on the same N moves the same bytes and does the same interactions, so the ratio of
  // the headline throughputs is the inverse ratio of the median times.
  c.ratio = a.median_ms / b.median_ms;
  c.band_percent = cpu ? kCompareCpuFloorPercent : noise_band_percent(a.cv_percent, b.cv_percent);
  c.microseconds = 1000.0 * std::fabs(a.median_ms - b.median_ms);
  c.ranges_apart = sample_ranges_apart(a, b);
  if (cpu) {
    c.verdict = cpu_verdict(c);
    return c;
  }
  const double change = std::fabs(100.0 * (c.ratio - 1.0));
  const bool beyond_floors = c.microseconds > kCompareFloorMicroseconds && change > kCompareFloorPercent;
  const bool beyond_noise = change > spread_percent(a.cv_percent, b.cv_percent) || c.ranges_apart;
  c.verdict = !(beyond_floors && beyond_noise) ? Verdict::Same
              : c.ratio > 1.0                  ? Verdict::Faster
                                               : Verdict::Slower;
  return c;
}

}  // namespace

double noise_band_percent(double cv_a_percent, double cv_b_percent) {
  return std::max(kCompareFloorPercent, spread_percent(cv_a_percent, cv_b_percent));
}

bool sample_ranges_apart(const BenchRow& a, const BenchRow& b) {
  return a.max_ms < b.min_ms || b.max_ms < a.min_ms;
}

Verdict compare_verdict(const BenchRow& a, const BenchRow& b, bool cpu) {
  return compared(a, b, cpu).verdict;
}

int Comparison::count(Verdict verdict) const {
  return static_cast<int>(
      std::count_if(rows.begin(), rows.end(), [&](const ComparedRow& r) { return r.verdict == verdict; }));
}

Comparison compare_runs(const SavedBench& a, const SavedBench& b) {
  // Two runs of one precision each, different ones (an fp32 run and an fp64 run): rows are matched across
  // the precisions, and B/A says how much faster the same N steps in B's precision.
  const std::optional<Precision> pa = only_precision(a), pb = only_precision(b);
  const bool across = pa && pb && *pa != *pb;
  const auto index_a = index_rows(a, "A", !across);
  const auto index_b = index_rows(b, "B", !across);
  Comparison out;
  out.notes = run_notes(a, b);
  if (across)
    out.notes.push_back("rows matched across precisions: A is " + std::string(to_string(*pa)) + ", B is " +
                        std::string(to_string(*pb)) +
                        "; B/A is A's time / B's for the same N (the bytes of a row differ with the precision)");
  const bool cpu = !a.run.device.gpu || !b.run.device.gpu;
  for (const BenchRow& row : a.run.rows) {
    const auto match = index_b.find(key_of(row, !across));
    if (match == index_b.end()) {
      out.only_in_a.push_back(row);
      continue;
    }
    out.rows.push_back(compared(row, *match->second, cpu));
  }
  for (const BenchRow& row : b.run.rows)
    if (index_a.find(key_of(row, !across)) == index_a.end()) out.only_in_b.push_back(row);
  return out;
}

void print_comparison(const Comparison& c, const SavedBench& a, const SavedBench& b, std::FILE* out) {
  const auto describe = [](const SavedBench& s) {
    return printable(s.path) + ": " + printable(s.run.device.name) + ", " + printable(s.run.date_utc) + ", " +
           std::to_string(s.run.rows.size()) + " rows";
  };
  std::fprintf(out, "A %s\nB %s\n", describe(a).c_str(), describe(b).c_str());
  std::fprintf(
      out,
      "B/A = A's median time / B's = B's throughput / A's (interactions/s for all-pairs forces, GB/s "
      "otherwise): above 1, B is faster\n"
      "faster/slower: the median time moved by more than %.0f us and %.0f%%, and beyond the band (%.0f x "
      "sqrt(cvA^2 + cvB^2)) or with every sample of one run faster than every sample of the other "
      "(samples: apart); else 'same'\n",
      kCompareFloorMicroseconds, kCompareFloorPercent, kCompareSpreads);
  if (std::any_of(c.rows.begin(), c.rows.end(), [](const ComparedRow& r) { return r.cpu; }))
    std::fprintf(out,
                 "CPU rows: other processes share the cores and only add time, so a CPU row is faster/slower only "
                 "when its median moved by more than %.0f us and both its median and its fastest sample moved "
                 "the same way by more than %.0f%% of the faster time; band = that floor\n",
                 kCompareCpuFloorMicroseconds, kCompareCpuFloorPercent);
  for (const std::string& note : c.notes) std::fprintf(out, "note: %s\n", note.c_str());
  std::fprintf(out, "%-10s %9s %-6s %-9s %-9s %-12s %16s %16s %7s %7s %9s %-8s %s\n", "solver", "N", "layout",
               "precision", "kernel", "variant", "A", "B", "B/A", "band", "|dt| us", "samples", "verdict");
  for (const ComparedRow& r : c.rows) {
    const std::string precision = r.a.precision == r.b.precision ? std::string(to_string(r.a.precision))
                                                                 : std::string(to_string(r.a.precision)) + ">" +
                                                                       std::string(to_string(r.b.precision));
    std::fprintf(out, "%-10s %9d %-6s %-9s %-9s %-12s %16s %16s %7.3f %6.1f%% %9.2f %-8s %s\n",
                 std::string(method_info(r.a.solver).solver_name).c_str(), r.a.particles,
                 std::string(to_string(r.a.layout)).c_str(), precision.c_str(), printable(r.a.kernel).c_str(),
                 printable(r.a.variant).c_str(), value_text(r.a).c_str(), value_text(r.b).c_str(), r.ratio,
                 r.band_percent, r.microseconds, r.ranges_apart ? "apart" : "overlap", to_string(r.verdict));
  }
  for (const BenchRow& row : c.only_in_a)
    std::fprintf(out, "only in A: %s\n", printable(row_name(row)).c_str());
  for (const BenchRow& row : c.only_in_b)
    std::fprintf(out, "only in B: %s\n", printable(row_name(row)).c_str());
  std::fprintf(out, "summary: %d faster, %d slower, %d same, %zu only in A, %zu only in B\n",
               c.count(Verdict::Faster), c.count(Verdict::Slower), c.count(Verdict::Same), c.only_in_a.size(),
               c.only_in_b.size());
}

std::string comparison_json(const Comparison& c, const SavedBench& a, const SavedBench& b) {
  nlohmann::json rows = nlohmann::json::array();
  for (const ComparedRow& r : c.rows) {
    nlohmann::json row = row_key_json(r.a);
    row["metric"] = headline_is_interactions(r.a) ? "interactions_per_second" : "gbps";
    row["a"] = side_json(r.a);
    row["b"] = side_json(r.b);
    row["ratio"] = r.ratio;
    row["band_percent"] = r.band_percent;
    row["cpu_rule"] = r.cpu;
    row["microseconds_apart"] = r.microseconds;
    row["sample_ranges_apart"] = r.ranges_apart;
    row["verdict"] = to_string(r.verdict);
    rows.push_back(row);
  }
  nlohmann::json only_a = nlohmann::json::array();
  for (const BenchRow& row : c.only_in_a) only_a.push_back(row_key_json(row));
  nlohmann::json only_b = nlohmann::json::array();
  for (const BenchRow& row : c.only_in_b) only_b.push_back(row_key_json(row));
  const nlohmann::json document = {{"schema", "coalesce-bench-compare/1"},
                                   {"inputs", {{"a", input_json(a)}, {"b", input_json(b)}}},
                                   {"rule",
                                    {{"ratio", "B/A = a.median_ms / b.median_ms = B's throughput / A's"},
                                     {"band", "max(floor_percent, spreads x sqrt(cv_a^2 + cv_b^2))"},
                                     {"verdict",
                                      "faster/slower when |b.median_ms - a.median_ms| > floor_microseconds and "
                                      "|ratio - 1| > floor_percent and (|ratio - 1| > spreads x sqrt(cv_a^2 + "
                                      "cv_b^2) or sample_ranges_apart), else same"},
                                     {"floor_percent", kCompareFloorPercent},
                                     {"floor_microseconds", kCompareFloorMicroseconds},
                                     {"spreads", kCompareSpreads},
                                     {"cpu_verdict",
                                      "rows of a CPU run: faster/slower when |b.median_ms - a.median_ms| > "
                                      "cpu_floor_microseconds and both the medians and the min_ms are more than "
                                      "cpu_floor_percent apart (of the faster), the same way, else same"},
                                     {"cpu_floor_percent", kCompareCpuFloorPercent},
                                     {"cpu_floor_microseconds", kCompareCpuFloorMicroseconds}}},
                                   {"notes", c.notes},
                                   {"rows", rows},
                                   {"only_in_a", only_a},
                                   {"only_in_b", only_b},
                                   {"summary",
                                    {{"faster", c.count(Verdict::Faster)},
                                     {"slower", c.count(Verdict::Slower)},
                                     {"same", c.count(Verdict::Same)},
                                     {"only_in_a", c.only_in_a.size()},
                                     {"only_in_b", c.only_in_b.size()}}}};
  // Replace, not throw, on invalid UTF-8 from a hostile file: the output stays valid JSON.
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace coalesce
