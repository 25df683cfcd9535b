// Bench table and JSON writer (nlohmann, as every report; the device block: app/services/device_report.h).
#include "app/bench/bench_report.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "app/bench/bench_file.h"
#include "app/bench/bench_stats.h"
#include "app/services/device_report.h"
#include "app/services/tree_report_json.h"

namespace coalesce {

namespace {

// A CPU one-sided all-pairs row's interactions/s as a share of its precision's issue limit; none elsewhere
// or when the limit is unknown.
std::optional<double> percent_of_issue_limit(const BenchRow& row, const DeviceInfo& d) {
  // The limit counts the one-sided loop's instructions: other rows (the mutual scheme's) have none.
  const std::optional<ForceMethod> method = bench_method(row.solver, row.variant);
  if (!d.cpu || !method || !method_info(*method).cpu_issue_limit || row.interactions <= 0)
    return std::nullopt;
  const auto& limit = d.cpu->force_loop(row.precision).issue_limit;
  if (!limit || *limit <= 0) return std::nullopt;
  return 100.0 * row.interactions_per_second / *limit;
}

// {"fp32": "...", "fp64": "..."}: each precision's formula with this machine's numbers.
nlohmann::json issue_limit_method(const CpuFacts& cpu) {
  nlohmann::json out = nlohmann::json::object();
  for (const PrecisionInfo& p : kPrecisionTable)
    out[std::string(p.name)] = issue_limit_formula(cpu, p.precision) +
                               "; instructions counted in objdump -d of the force loop (docs/perf.md)";
  return out;
}

// The mark of a row that runs from the last-level cache: its level, "L3", or "cache" when unknown.
std::string cache_mark(const CpuFacts& cpu) {
  return cpu.last_level_cache_level > 0 ? "L" + std::to_string(cpu.last_level_cache_level) : "cache";
}

// The CPU's "ceil at" cell: the bytes one pass of the row's ceiling moved, and the mark when the row runs
// from the cache.
std::string ceiling_at_cell(const BenchRow& row, const CpuFacts& cpu) {
  if (!row.ceiling_bytes) return "";
  char cell[48];
  std::snprintf(cell, sizeof cell, "%.1f MB", *row.ceiling_bytes / 1e6);
  return row.from_cache.value_or(false) ? cell + (" " + cache_mark(cpu)) : std::string(cell);
}

// Under the CPU's table: what "ceil at" says, once.
void print_ceiling_at_note(const BenchResult& r, const CpuFacts& cpu, std::FILE* out) {
  const bool any =
      std::any_of(r.rows.begin(), r.rows.end(), [](const BenchRow& row) { return row.ceiling_bytes; });
  if (!any) return;
  std::fprintf(
      out,
      "ceil at: bytes one pass of the row's ceiling moved: the row's own when it moves fewer than "
      "the start-up ceiling, so a row the cache holds meets a ceiling it holds too; %s: the row fits "
      "in %s and runs from it\n",
      cache_mark(cpu).c_str(), cache_text(cpu).c_str());
}

// Whether a memory-bound row moved its bytes faster than its ceiling: that copy then does not bound the row's
// access pattern on this machine (a CPU pack reads several streams at once), and the row says so.
bool beats_ceiling(const BenchRow& row) {
  return !row.ceiling.empty() && row.percent_of_ceiling > 100.0;
}

}  // namespace

void print_bench_table(const BenchResult& r, std::FILE* out) {
  const DeviceInfo& d = r.device;
  for (const std::string& line : device_header_lines(d, r.backend_name))
    std::fprintf(out, "%s\n", line.c_str());
  std::vector<CounterReading> readings;
  for (const BenchRow& row : r.rows) readings.push_back(row.counters);
  // Without counters their columns would be "-" on every row: they are left out instead.
  const bool counted = r.counters_reason.empty();
  if (!counted)
    std::fprintf(out, "%s\n", r.counters_reason.c_str());
  else
    std::fprintf(out,
                 "hw/f: DRAM bytes the hardware counted / formula bytes; sect/req: L1 sectors per global "
                 "load/store request (4.0 = coalesced 4-byte words)\n");
  const std::string clocks = clocks_note(d, readings);
  if (!clocks.empty()) std::fprintf(out, "note: %s\n", clocks.c_str());
  std::fprintf(out, "%-10s %9s %-6s %-4s %-9s %-12s %10s %6s %9s %7s %-8s", "solver", "N", "layout", "prec",
               "kernel", "variant", "median ms", "cv", "GB/s", "% ceil", "ceiling");
  if (d.cpu) std::fprintf(out, " %-13s", "ceil at");
  std::fprintf(out, " %14s %10s", "interactions/s", "pairs/s");
  if (d.cpu) std::fprintf(out, " %7s", "% limit");
  std::fprintf(out, counted ? " %5s %9s\n" : "\n", "hw/f", "sect/req");
  int noisy = 0, beaten = 0;
  for (const BenchRow& row : r.rows) {
    // The all-pairs forces are compute bound: interactions/s is their figure, and GB/s and % of a ceiling
    // say nothing, so those cells stay empty; other rows have no interactions/s unless they count some.
    const bool by_interactions = headline_is_interactions(row);
    char gbps[32] = "", percent[32] = "", rate[32] = "";
    if (!by_interactions) {
      std::snprintf(gbps, sizeof gbps, "%.1f", row.gbps);
      std::snprintf(percent, sizeof percent, "%s%.1f%%", beats_ceiling(row) ? "!" : "",
                    row.percent_of_ceiling);
    }
    if (row.interactions > 0) std::snprintf(rate, sizeof rate, "%.3e", row.interactions_per_second);
    std::fprintf(out, "%-10s %9d %-6s %-4s %-9s %-12s %10.4f %5.1f%%%s %9s %7s %-8s",
                 std::string(method_info(row.solver).solver_name).c_str(), row.particles,
                 std::string(to_string(row.layout)).c_str(), std::string(to_string(row.precision)).c_str(),
                 row.kernel.c_str(), row.variant.c_str(), row.median_ms, row.cv_percent,
                 row.noisy ? "*" : " ", gbps, percent, by_interactions ? "" : row.ceiling.c_str());
    if (d.cpu) std::fprintf(out, " %-13s", ceiling_at_cell(row, *d.cpu).c_str());
    char pairs[32] = "";
    if (row.pair_evaluations_per_second > 0)
      std::snprintf(pairs, sizeof pairs, "%.3e", row.pair_evaluations_per_second);
    std::fprintf(out, " %14s %10s", rate, pairs);
    if (d.cpu) {
      const auto limit = percent_of_issue_limit(row, d);
      char cell[32] = "";
      if (limit) std::snprintf(cell, sizeof cell, "%.1f%%", *limit);
      std::fprintf(out, " %7s", cell);
    }
    if (counted)
      std::fprintf(out, " %5s %9s", counters_ratio_cell(row.counters, row.bytes).c_str(),
                   sectors_cell(row.counters).c_str());
    std::fprintf(out, "\n");
    noisy += row.noisy ? 1 : 0;
    beaten += beats_ceiling(row) ? 1 : 0;
  }
  if (d.cpu) print_ceiling_at_note(r, *d.cpu, out);
  if (noisy > 0)
    std::fprintf(out, "* %d noisy row%s: samples vary by more than %.0f%% (cv = standard deviation / mean)\n",
                 noisy, noisy == 1 ? "" : "s", kNoisyCvPercent);
  if (beaten > 0)
    std::fprintf(out,
                 "! %d %s: that copy does not bound the row's access pattern on this machine, so its %% is "
                 "no share of a limit (docs/bench-json.md)\n",
                 beaten, beaten == 1 ? "row beats its ceiling" : "rows beat their ceilings");
  // The tree rows' own lines: what the walk did, where its time went and the error it made.
  for (const BenchRow& row : r.rows) {
    if (!row.tree) continue;
    const TreeReport& t = row.tree->report;
    const double targets = t.targets > 0 ? t.targets : 1;
    std::string stages;
    for (const auto& [name, ms] : t.stages_ms) {
      char cell[48];
      std::snprintf(cell, sizeof cell, "%s%s %.3f", stages.empty() ? "" : ", ", std::string(name).c_str(),
                    ms);
      stages += cell;
    }
    const ForceErrors& e = row.tree->errors;
    char error[128] = "error unknown";
    if (e.targets > 0)
      std::snprintf(error, sizeof error, "error on %d bodies p50 %.2e p99 %.2e max %.2e", e.targets, e.p50,
                    e.p99, e.max);
    std::fprintf(out, "tree %d %s %s: theta %g, %.0f pp + %.0f pn a target; ms: %s; %s\n", row.particles,
                 std::string(to_string(row.layout)).c_str(), std::string(to_string(row.precision)).c_str(),
                 t.settings.theta, t.counts.particle_particle / targets, t.counts.particle_node / targets,
                 stages.c_str(), error);
  }
}

namespace {
// A tree row's settings, counts per target, stage split (ms, as the backend splits it) and error against
// the float64 direct sum; null for every other row (docs/bench-json.md).
nlohmann::json tree_json(const BenchRow& row) {
  if (!row.tree) return nullptr;
  const ForceErrors& e = row.tree->errors;
  const bool sampled = e.targets > 0;
  nlohmann::json tree = tree_report_json(row.tree->report);
  tree["error"] = {{"targets", e.targets},
                   {"seed", row.tree->seed},
                   {"p50", sampled ? nlohmann::json(e.p50) : nlohmann::json(nullptr)},
                   {"p99", sampled ? nlohmann::json(e.p99) : nlohmann::json(nullptr)},
                   {"max", sampled ? nlohmann::json(e.max) : nlohmann::json(nullptr)}};
  return tree;
}
}  // namespace

std::string bench_json(const BenchResult& r) {
  using nlohmann::json;
  json rows = json::array();
  for (const BenchRow& row : r.rows) {
    // JSON has no NaN or Inf: nlohmann writes a missing measurement as null.
    const auto limit = percent_of_issue_limit(row, r.device);
    rows.push_back(
        {{"solver", std::string(method_info(row.solver).solver_name)},
         {"particles", row.particles},
         {"layout", std::string(to_string(row.layout))},
         {"precision", std::string(to_string(row.precision))},
         {"kernel", row.kernel},
         {"variant", row.variant},
         {"samples", row.samples},
         {"median_ms", row.median_ms},
         {"min_ms", row.min_ms},
         {"max_ms", row.max_ms},
         {"cv_percent", row.cv_percent},
         {"noisy", row.noisy},
         {"bytes", row.bytes},
         {"gbps", row.gbps},
         {"percent_of_copy", row.percent_of_copy},
         {"ceiling", row.ceiling.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.ceiling)},
         {"percent_of_ceiling",
          row.ceiling.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.percent_of_ceiling)},
         {"ceiling_gbps", row.ceiling.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.ceiling_gbps)},
         {"ceiling_bytes", or_null(row.ceiling_bytes)},
         {"from_cache", or_null(row.from_cache)},
         {"above_ceiling",
          row.ceiling.empty() ? nlohmann::json(nullptr) : nlohmann::json(beats_ceiling(row))},
         {"scratch_bytes", row.scratch_bytes},
         {"interactions", row.interactions},
         {"interactions_per_second", row.interactions_per_second},
         {"pair_evaluations_per_second", row.pair_evaluations_per_second > 0
                                             ? nlohmann::json(row.pair_evaluations_per_second)
                                             : nlohmann::json(nullptr)},
         {"percent_of_issue_limit", limit ? nlohmann::json(*limit) : nlohmann::json(nullptr)},
         {"tree", tree_json(row)},
         {"counters", counters_json(row.counters, row.bytes)}});
  }
  std::vector<CounterReading> readings;
  for (const BenchRow& row : r.rows) readings.push_back(row.counters);
  const json doc = {
      {"schema", kBenchSchema},
      {"command_line", r.command_line},
      {"date_utc", r.date_utc},
      {"backend", r.backend_name},
      {"device", device_json(r.device)},
      {"method",
       {{"repeats", r.plan.repeats},
        {"min_repeats",
         r.plan.repeat_budget_ms > 0 ? nlohmann::json(r.plan.min_repeats) : nlohmann::json(nullptr)},
        {"repeat_budget_ms",
         r.plan.repeat_budget_ms > 0 ? nlohmann::json(r.plan.repeat_budget_ms) : nlohmann::json(nullptr)},
        {"warmup_calls", r.plan.warmup_calls},
        {"warmup_ms", r.plan.warmup_ms},
        {"slow_warmup_calls", r.plan.slow_warmup_calls},
        {"statistic", "median"},
        {"launches", r.device.gpu
                         ? "each row's timed calls queued behind a held stream, then released, so each "
                           "call's events time the device alone (kernels/launch_hold.h)"
                         : "each call timed on the host with steady_clock around its parallel pass over "
                           "the kernels' thread pool (sim/cpu_backend.cpp)"},
        {"noisy_cv_percent", kNoisyCvPercent},
        {"bytes",
         "sim/byte_counts.h: each input read once, each output written once, plus the partial sums "
         "an all-pairs scheme writes and reads back (scratch_bytes)"},
        {"copy_peak", copy_ceiling_method(r.device)},
        {"ceilings", ceilings_json(r.device)},
        {"issue_limit", r.device.cpu ? issue_limit_method(*r.device.cpu) : nlohmann::json(nullptr)},
        {"counters",
         "a separate pass per row after the timed repeats: one call under CUPTI's range profiler "
         "(kernel replay), so the timed samples carry no profiling"}}},
      {"clocks", clocks_json(r.device, readings, r.counters_reason)},
      {"rows", rows},
  };
  return doc.dump(2) + "\n";
}

}  // namespace coalesce
