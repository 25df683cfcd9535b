// coalesce bench end to end on the CPU backend (runs without a GPU): every row present, JSON well formed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "app/bench/bench_runner.h"
#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/services/device_report.h"
#include "sim/cpu_info.h"
#include "sim/errors.h"
#include "sim/force_method.h"
#include "sim/layout_storage.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

TEST(Bench, CpuSweepWritesEveryRowAsValidJson) {
  testing::TestRng rng;
  Options options;
  options.command = Command::Bench;
  options.backend = BackendChoice::Cpu;
  const int n = rng.uniform_int(100, 400);
  options.bench_particles = {n};
  options.bench_layouts = {Layout::SoA, Layout::Float4};
  options.repeats = 2;
  options.json = ::testing::TempDir() + "bench_test.json";
  ASSERT_EQ(run_bench(options), 0);

  std::ifstream in(options.json);
  const nlohmann::json doc = nlohmann::json::parse(in);  // throws on malformed JSON
  EXPECT_EQ(doc.at("schema"), "coalesce-bench/2");
  // The one device block (app/services/device_report.h) of the CPU backend the bench ran on.
  EXPECT_EQ(doc.at("device"), device_json(cpu_device_info()));
  EXPECT_FALSE(doc.at("device").at("gpu").get<bool>());
  EXPECT_GT(doc.at("device").at("copy_peak_gbps").get<double>(), 0.0);
  const auto& rows = doc.at("rows");
  // 2 layouts x (all-pairs: forces, one row per scheme; attractors: forces, integrate, 4 pack variants,
  // convert there and back; tree: forces).
  ASSERT_EQ(rows.size(),
            2u * (family_rows(ForceMethod::OneSidedAllPairs) + 8u + family_rows(ForceMethod::Tree)));
  int forces = 0;
  std::multiset<std::string> directions;  // "from to" of every convert row
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("particles").get<int>(), n);
    EXPECT_EQ(row.at("samples").get<int>(), 2) << row.dump();
    EXPECT_GT(row.at("median_ms").get<double>(), 0.0) << row.dump();
    const double cv = row.at("cv_percent").get<double>();
    EXPECT_GE(cv, 0.0) << row.dump();
    EXPECT_EQ(row.at("noisy").get<bool>(), cv > doc.at("method").at("noisy_cv_percent").get<double>())
        << row.dump();
    EXPECT_GT(row.at("bytes").get<double>(), 0.0) << row.dump();
    // The CPU backend has no hardware counters: every row says so, in the one line the user saw.
    EXPECT_FALSE(row.at("counters").at("available").get<bool>()) << row.dump();
    EXPECT_EQ(row.at("counters").at("reason"), "hardware counters unavailable: CPU backend") << row.dump();
    if (row.at("kernel") == "forces") {
      ++forces;
      EXPECT_GT(row.at("interactions_per_second").get<double>(), 0.0);
    }
    // The tree's own report: counts, its stages, its error against the direct sum; null elsewhere.
    if (row.at("solver") == "tree") {
      const auto& tree = row.at("tree");
      EXPECT_EQ(tree.at("theta").get<double>(), kDefaultTheta);
      EXPECT_GT(tree.at("particle_particle_per_target").get<double>(), 0.0);
      EXPECT_GT(tree.at("stages_ms").at("walk").get<double>(), 0.0);
      const auto& error = tree.at("error");
      EXPECT_EQ(error.at("targets").get<int>(), std::min(n, kErrorTargets)) << row.dump();
      EXPECT_LE(error.at("p50").get<double>(), error.at("p99").get<double>());
      EXPECT_LE(error.at("p99").get<double>(), error.at("max").get<double>());
      EXPECT_LE(error.at("p99").get<double>(), 5e-4) << row.dump();
    } else {
      EXPECT_TRUE(row.at("tree").is_null()) << row.dump();
    }
    // Pair evaluations/s: all-pairs forces only, n^2 or n (n - 1) / 2 pairs by the row's scheme; else null.
    if (row.at("kernel") == "forces" && row.at("solver") == "all-pairs") {
      const bool mutual = row.at("variant") == "mutual";
      EXPECT_TRUE(mutual || row.at("variant") == "") << row.dump();
      const double pairs = mutual ? n * (n - 1.0) / 2.0 : double(n) * n;
      EXPECT_NEAR(row.at("pair_evaluations_per_second").get<double>(),
                  pairs / (row.at("median_ms").get<double>() * 1e-3),
                  1e-9 * row.at("pair_evaluations_per_second").get<double>()) << row.dump();
    } else {
      EXPECT_TRUE(row.at("pair_evaluations_per_second").is_null()) << row.dump();
    }
    if (row.at("kernel") == "convert")
      directions.insert(row.at("layout").get<std::string>() + " " + row.at("variant").get<std::string>());
  }
  EXPECT_EQ(forces, static_cast<int>(2 * (family_rows(ForceMethod::OneSidedAllPairs) + 1 +
                                          family_rows(ForceMethod::Tree))));
  // soa's round trip goes to float4 and back, float4's to aos and back: each direction once, attractors only.
  const std::multiset<std::string> expected = {"soa to float4", "float4 to soa", "float4 to aos", "aos to float4"};
  EXPECT_EQ(directions, expected);
  // No clocks were measured, and the run says why; a CPU has no SM or memory clock maximum: null.
  const auto& clocks = doc.at("clocks");
  EXPECT_FALSE(clocks.at("measured").get<bool>());
  EXPECT_EQ(clocks.at("reason"), "hardware counters unavailable: CPU backend");
  EXPECT_TRUE(clocks.at("max_sm_mhz").is_null());
  EXPECT_TRUE(clocks.at("max_memory_mhz").is_null());
  std::remove(options.json.c_str());
}

TEST(BenchPlan, GpuDefaultsSweepTheForcesAloneAtAllPairsSizes) {
  Options options;
  const BenchPlan plan = make_bench_plan(options, /*gpu=*/true);
  EXPECT_EQ(plan.methods,
            (std::vector<ForceMethod>{ForceMethod::OneSidedAllPairs, ForceMethod::MutualAllPairs,
                                      ForceMethod::Attractors, ForceMethod::Tree}));
  EXPECT_EQ(plan.particles_of(ForceMethod::OneSidedAllPairs), (std::vector<int>{65536, 131072, 262144}));
  EXPECT_EQ(plan.particles_of(ForceMethod::MutualAllPairs), (std::vector<int>{65536, 131072, 262144}));
  EXPECT_EQ(plan.particles_of(ForceMethod::Attractors), (std::vector<int>{1 << 20, 1 << 24}));
  EXPECT_EQ(plan.particles_of(ForceMethod::Tree), (std::vector<int>{1 << 20, 1 << 22, 1 << 24}));
  EXPECT_EQ(plan.repeats, 20);
  EXPECT_EQ(plan.repeat_budget_ms, 0.0);  // exactly `repeats` on the GPU
  // integrate, pack and convert take microseconds at all-pairs sizes: the attractors sweep measures them.
  EXPECT_EQ(swept_kernels(ForceMethod::OneSidedAllPairs), (std::vector<std::string>{"forces"}));
  EXPECT_EQ(swept_kernels(ForceMethod::MutualAllPairs), (std::vector<std::string>{"forces"}));
  EXPECT_EQ(swept_kernels(ForceMethod::Attractors),
            (std::vector<std::string>{"forces", "integrate", "pack", "convert"}));
}

TEST(BenchPlan, CpuDefaultsStreamPastTheCacheAndRepeatWithinABudget) {
  Options options;
  const BenchPlan plan = make_bench_plan(options, /*gpu=*/false);
  ASSERT_EQ(plan.particles_of(ForceMethod::Attractors).size(), 1u);
  const int n = plan.particles_of(ForceMethod::Attractors)[0];
  EXPECT_EQ(n, cpu_attractor_particles(cpu_facts().last_level_cache_bytes));
  EXPECT_GE(state_bytes(Layout::AoS, n), std::min(cpu_facts().copy.buffer_bytes, kCpuDefaultStateBytes));
  EXPECT_GT(plan.repeats, plan.min_repeats);
  EXPECT_GT(plan.min_repeats, 1);
  EXPECT_GT(plan.repeat_budget_ms, 0.0);
  // --repeats given: exactly that many, no budget.
  testing::TestRng rng;
  options.repeats = rng.uniform_int(1, 50);
  const BenchPlan exact = make_bench_plan(options, false);
  EXPECT_EQ(exact.repeats, options.repeats);
  EXPECT_EQ(exact.repeat_budget_ms, 0.0);
}

// Past the copy buffer, or past kCpuDefaultStateBytes where the reported cache makes the buffer larger (a
// guest reporting its socket's 508 MiB L3 chose 38M and ran past 15 minutes: issue 41).
TEST(BenchPlan, CpuAttractorSizeIsTheFirstPastTheCopyBufferOrTheCap) {
  testing::TestRng rng;
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t cache = static_cast<std::size_t>(rng.uniform_int(1, 512)) << 20;
    const std::size_t target = std::min(cpu_copy_buffer_bytes(cache), kCpuDefaultStateBytes);
    const int n = cpu_attractor_particles(cache);
    SCOPED_TRACE("cache " + std::to_string(cache) + " B, N " + std::to_string(n));
    EXPECT_EQ(n % 65536, 0);
    for (Layout layout : kAllLayouts) EXPECT_GE(state_bytes(layout, n), target);
    std::size_t smallest_before = state_bytes(kAllLayouts[0], n - 65536);  // one step fewer: not past it
    for (Layout layout : kAllLayouts) smallest_before = std::min(smallest_before, state_bytes(layout, n - 65536));
    EXPECT_LT(smallest_before, target);
  }
  EXPECT_EQ(cpu_attractor_particles(std::size_t{508} << 20), cpu_attractor_particles(std::size_t{32} << 20));
}

// --forces names one row of all-pairs: that row alone is measured, at the sizes asked. (Issue 31 keyed the
// sizes by the row while the runner read them by the family, so --forces mutual measured nothing, exit 0.)
TEST(Bench, ForcesNamingTheSecondRowMeasuresItAlone) {
  testing::TestRng rng;
  for (ForceMethod forces : {ForceMethod::OneSidedAllPairs, ForceMethod::MutualAllPairs}) {
    Options options;
    options.command = Command::Bench;
    options.backend = BackendChoice::Cpu;
    const int n = rng.uniform_int(64, 256);
    options.bench_particles = {n};
    options.bench_layouts = {testing::random_layout(rng)};
    options.solver = ForceMethod::OneSidedAllPairs;
    options.forces = forces;
    options.repeats = 1;
    options.counters = false;
    options.json = ::testing::TempDir() + "bench_forces_test.json";
    ASSERT_EQ(run_bench(options), 0);
    std::ifstream in(options.json);
    const nlohmann::json doc = nlohmann::json::parse(in);
    ASSERT_EQ(doc.at("rows").size(), 1u) << method_info(forces).name;
    const auto& row = doc.at("rows")[0];
    EXPECT_EQ(row.at("particles").get<int>(), n);
    EXPECT_EQ(row.at("variant").get<std::string>(), method_info(forces).bench_variant);
    std::remove(options.json.c_str());
  }
}

TEST(Bench, NoCountersSaysTheyAreOff) {
  testing::TestRng rng;
  Options options;
  options.command = Command::Bench;
  options.backend = BackendChoice::Cpu;
  options.bench_particles = {rng.uniform_int(64, 256)};
  options.bench_layouts = {testing::random_layout(rng)};
  options.solver = ForceMethod::Attractors;
  options.repeats = 1;
  options.counters = false;
  options.json = ::testing::TempDir() + "bench_no_counters_test.json";
  ASSERT_EQ(run_bench(options), 0);
  std::ifstream in(options.json);
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_NE(doc.at("command_line").get<std::string>().find("--no-counters"), std::string::npos);
  for (const auto& row : doc.at("rows"))
    EXPECT_EQ(row.at("counters").at("reason"), "hardware counters off (--no-counters)") << row.dump();
  std::remove(options.json.c_str());
}

TEST(Bench, UnwritableJsonPathFailsBeforeRunning) {
  Options options;
  options.command = Command::Bench;
  options.backend = BackendChoice::Cpu;
  options.bench_particles = {64};
  options.json = "/nonexistent-directory/bench.json";
  // The command line's check, made before any row runs: a usage error.
  try {
    check_paths(options);
    FAIL() << "expected a UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-directory/bench.json"), std::string::npos) << e.what();
  }
  // Checked again when the JSON is written, after the work: then a failure of the run (exit 1).
  try {
    run_bench(options);
    FAIL() << "expected a RuntimeFailure";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-directory/bench.json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace coalesce
