// Synthetic `coalesce bench --json` runs (schema coalesce-bench/2) for the --compare and --plot tests:
// random distinct rows, written as the bench writes them.
#pragma once

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/support/test_random.h"

namespace coalesce::testing {

struct SyntheticRow {
  std::string solver, layout, kernel, variant;
  int particles = 0;
  double median_ms = 1, cv_percent = 0, bytes = 0, interactions = 0;

  bool by_interactions() const { return solver == "all-pairs" && kernel == "forces"; }
  auto key() const { return std::tie(solver, particles, layout, kernel, variant); }
};

struct SyntheticRun {
  std::string gpu = "Synthetic GPU 80GB", driver = "580.1", backend_kind = "cuda";
  double copy_peak_gbps = 3000;
  int repeats = 20;
  bool clocks_measured = false;
  double sm_mhz = 1980, memory_mhz = 2619;
  std::vector<SyntheticRow> rows;
};

// `count` rows with distinct (solver, N, layout, kernel, variant) keys, random times and spreads.
inline std::vector<SyntheticRow> random_rows(TestRng& rng, int count) {
  const char* kernels[] = {"forces", "integrate", "pack", "convert"};
  const char* packs[] = {"naive", "tiled", "tiled-padded", "vector"};
  std::set<std::tuple<std::string, int, std::string, std::string, std::string>> seen;
  std::vector<SyntheticRow> rows;
  while (static_cast<int>(rows.size()) < count) {
    SyntheticRow row;
    row.solver = rng.uniform_int(0, 1) ? "all-pairs" : "attractors";
    row.particles = 1024 << rng.uniform_int(0, 8);
    row.layout = std::string(to_string(random_layout(rng)));
    row.kernel = kernels[rng.uniform_int(0, 3)];
    if (row.kernel == "pack") row.variant = packs[rng.uniform_int(0, 3)];
    if (row.kernel == "convert") row.variant = "to " + std::string(to_string(random_layout(rng)));
    if (!seen.insert({row.solver, row.particles, row.layout, row.kernel, row.variant}).second) continue;
    row.median_ms = std::exp(rng.uniform(std::log(0.005f), std::log(50.0f)));
    row.cv_percent = rng.uniform(0.0f, 4.0f);
    row.bytes = 28.0 * row.particles * rng.uniform_int(1, 4);
    if (row.kernel == "forces") row.interactions = static_cast<double>(row.particles) * row.particles;
    rows.push_back(row);
  }
  return rows;
}

inline nlohmann::json row_json(const SyntheticRow& r, double copy_peak_gbps) {
  const double gbps = r.bytes / (r.median_ms * 1e6);
  return {{"solver", r.solver},
          {"particles", r.particles},
          {"layout", r.layout},
          {"kernel", r.kernel},
          {"variant", r.variant},
          {"samples", 20},
          {"median_ms", r.median_ms},
          // The samples' range as a spread of cv would give it: three standard deviations either way.
          {"min_ms", r.median_ms * std::max(0.01, 1.0 - 3.0 * r.cv_percent / 100.0)},
          {"max_ms", r.median_ms * (1.0 + 3.0 * r.cv_percent / 100.0)},
          {"cv_percent", r.cv_percent},
          {"noisy", r.cv_percent > 2},
          {"bytes", r.bytes},
          {"gbps", gbps},
          {"percent_of_copy", 100 * gbps / copy_peak_gbps},
          {"interactions", r.interactions},
          {"interactions_per_second", r.interactions / (r.median_ms * 1e-3)},
          {"counters", {{"available", false}, {"reason", "hardware counters off (--no-counters)"}}}};
}

inline nlohmann::json run_json(const SyntheticRun& run) {
  nlohmann::json rows = nlohmann::json::array();
  for (const SyntheticRow& r : run.rows) rows.push_back(row_json(r, run.copy_peak_gbps));
  nlohmann::json clocks = {{"measured", false}, {"reason", "hardware counters off (--no-counters)"}};
  if (run.clocks_measured)
    clocks = {{"measured", true},   {"sm_mhz", run.sm_mhz},   {"memory_mhz", run.memory_mhz},
              {"max_sm_mhz", 1980}, {"max_memory_mhz", 2619}, {"note", nullptr}};
  return {{"schema", "coalesce-bench/2"},
          {"command_line", "coalesce bench --repeats " + std::to_string(run.repeats) + " --json x.json"},
          {"date_utc", "2026-11-21T23:59:00Z"},
          {"backend", run.backend_kind + " (" + run.gpu + ")"},
          {"device",
           {{"gpu", true},
            {"name", run.gpu},
            {"driver", run.driver},
            {"cuda_driver", "13.0"},
            {"cuda_runtime", "13.0"},
            {"multiprocessors", 132},
            {"memory_bytes", 8.5e10},
            {"sm_clock_khz", 1980000},
            {"memory_clock_khz", 2619000},
            {"bus_width_bits", 5120},
            {"theoretical_peak_gbps", 3352.3},
            {"copy_peak_gbps", run.copy_peak_gbps}}},
          {"method", {{"repeats", run.repeats}, {"warmup_calls", 30}, {"statistic", "median"}}},
          {"rows", rows},
          {"clocks", clocks}};
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline void write_run(const std::string& path, const SyntheticRun& run) {
  write_text(path, run_json(run).dump(2));
}

}  // namespace coalesce::testing
