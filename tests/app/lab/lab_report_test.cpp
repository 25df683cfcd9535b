// The lab's table and JSON (no device needed): every row appears, failures say FAIL, shared-memory rows
// carry no % of copy, and the JSON round-trips through a parser with the run's facts.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/services/device_report.h"
#include "app/lab/lab_report.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

lab::LabRun sample_run(testing::TestRng& rng) {
  lab::LabRun run;
  run.device.gpu = true;
  run.device.name = "Test GPU";
  run.device.driver = "580.1";
  run.device.cuda_driver = std::to_string(rng.uniform_int(11, 14)) + ".0";
  run.device.cuda_runtime = "13.0";
  run.device.multiprocessors = rng.uniform_int(1, 200);
  run.device.theoretical_peak_gbps = rng.uniform(1000.0f, 4000.0f);
  run.device.copy_peak_gbps = rng.uniform(500.0f, 3000.0f);
  run.settings.side = 256 * rng.uniform_int(1, 32);
  run.settings.repeats = rng.uniform_int(1, 50);
  run.settings.precision = kAllPrecisions[static_cast<std::size_t>(rng.uniform_int(0, int(kPrecisionCount) - 1))];
  run.date_utc = "2026-11-21T00:00:00Z";
  run.copy_gbps = rng.uniform(500.0f, 3000.0f);
  const lab::LabContext context{run.settings, run.copy_gbps, nullptr, ""};
  run.rows.push_back(lab::make_row(context, "copy", "coalesced kernel", rng.uniform(0.1f, 2.0f), 2e9,
                                   "2 x N x 4 B", "H100: 2395 GB/s", true));
  lab::LabRow shared = lab::make_row(context, "banks", "32-way", 1.0, 1e9, "shared", "", false);
  shared.pct_copy = -1;
  shared.note = "x31.9 time vs 1-way";
  run.rows.push_back(shared);
  return run;
}

TEST(LabReport, RowGbpsAndPercentFollowFromBytesTimeAndCeiling) {
  testing::TestRng rng;
  const lab::LabContext context{lab::LabSettings{}, rng.uniform(500.0f, 3000.0f), nullptr, ""};
  const double ms = rng.uniform(0.01f, 10.0f), bytes = rng.uniform(1e6f, 1e10f);
  const lab::LabRow row = lab::make_row(context, "e", "v", ms, bytes, "", "", true);
  EXPECT_NEAR(row.gbps, bytes / (ms * 1e6), 1e-9 * row.gbps);
  EXPECT_NEAR(row.pct_copy, 100.0 * row.gbps / context.copy_gbps, 1e-9 * row.pct_copy);
}

TEST(LabReport, TableShowsEveryRowAndMarksFailures) {
  testing::TestRng rng;
  const lab::LabRun run = sample_run(rng);
  const std::string table = lab_table(run, {});
  EXPECT_NE(table.find("Test GPU (" + std::to_string(run.device.multiprocessors) + " SMs)"), std::string::npos);
  EXPECT_NE(table.find("driver 580.1 / CUDA " + run.device.cuda_driver), std::string::npos) << table;
  EXPECT_NE(table.find("coalesced kernel"), std::string::npos);
  EXPECT_NE(table.find("H100: 2395 GB/s"), std::string::npos);
  EXPECT_NE(table.find("FAIL"), std::string::npos);
  EXPECT_NE(table.find("x31.9 time vs 1-way"), std::string::npos);
  EXPECT_NE(table.find("particles in " + std::string(to_string(run.settings.precision))), std::string::npos)
      << table;
}

TEST(LabReport, JsonCarriesTheRunAndNullPercentForSharedMemory) {
  testing::TestRng rng;
  const lab::LabRun run = sample_run(rng);
  const nlohmann::json doc = nlohmann::json::parse(lab_json(run, {}));
  EXPECT_EQ(doc["schema"], "coalesce-lab/2");
  // The same device block as the bench and the screenshot JSON.
  EXPECT_EQ(doc["device"], device_json(run.device));
  EXPECT_EQ(doc["device"]["name"], "Test GPU");
  EXPECT_EQ(doc["device"]["driver"], "580.1");
  EXPECT_EQ(doc["device"]["cuda_driver"], run.device.cuda_driver);
  EXPECT_EQ(doc["device"]["multiprocessors"], run.device.multiprocessors);
  EXPECT_DOUBLE_EQ(doc["device"]["copy_peak_gbps"].get<double>(), run.device.copy_peak_gbps);
  EXPECT_DOUBLE_EQ(doc["copy_ceiling_gbps"].get<double>(), run.copy_gbps);
  EXPECT_EQ(doc["settings"]["side"], run.settings.side);
  EXPECT_EQ(doc["settings"]["precision"], std::string(to_string(run.settings.precision)));
  ASSERT_EQ(doc["rows"].size(), run.rows.size());
  EXPECT_DOUBLE_EQ(doc["rows"][0]["gbps"].get<double>(), run.rows[0].gbps);
  EXPECT_TRUE(doc["rows"][0]["check_ok"].get<bool>());
  EXPECT_TRUE(doc["rows"][1]["pct_copy"].is_null());
  EXPECT_FALSE(doc["rows"][1]["check_ok"].get<bool>());
}

// A row with counters carries them with their ratios; one without says why; the clocks block averages the
// rows' clocks and notes a difference of more than 5% from the maximum.
TEST(LabReport, CountersAndClocksInTheJsonAndTable) {
  testing::TestRng rng;
  lab::LabRun run = sample_run(rng);
  run.device.sm_clock_khz = rng.uniform_int(1'000'000, 2'000'000);
  run.device.memory_clock_khz = rng.uniform_int(1'000'000, 3'000'000);
  RowCounters c;
  c.dram_read_bytes = rng.uniform(1e8f, 1e9f);
  c.dram_write_bytes = rng.uniform(1e8f, 1e9f);
  c.global_load_requests = rng.uniform_int(1000, 100000);
  c.global_load_sectors = 4 * c.global_load_requests * rng.uniform(1.0f, 8.0f);
  c.global_store_requests = rng.uniform_int(1000, 100000);
  c.global_store_sectors = 4 * c.global_store_requests;
  c.shared_load_requests = 0;  // no shared memory: its ratio is null, not 0
  const bool slow = rng.uniform_int(0, 1) == 1;
  c.sm_clock_hz = 1e3 * *run.device.sm_clock_khz * (slow ? 0.8 : 0.99);
  c.dram_clock_hz = 1e3 * *run.device.memory_clock_khz;
  c.duration_ns = rng.uniform(1e3f, 1e6f);
  run.rows[0].counters = {true, "", c, 1};
  run.rows[1].counters = {false, "hardware counters unavailable: test", {}, 0};
  const nlohmann::json doc = nlohmann::json::parse(lab_json(run, {}));
  const auto& got = doc["rows"][0]["counters"];
  EXPECT_TRUE(got["available"].get<bool>());
  EXPECT_NEAR(got["ratio_to_formula"].get<double>(), (c.dram_read_bytes + c.dram_write_bytes) / run.rows[0].bytes,
              1e-9);
  EXPECT_NEAR(got["load_sectors_per_request"].get<double>(), c.global_load_sectors / c.global_load_requests, 1e-9);
  EXPECT_NEAR(got["store_sectors_per_request"].get<double>(), 4.0, 1e-12);
  EXPECT_TRUE(got["shared_load_wavefronts_per_request"].is_null());
  EXPECT_FALSE(doc["rows"][1]["counters"]["available"].get<bool>());
  EXPECT_EQ(doc["rows"][1]["counters"]["reason"], "hardware counters unavailable: test");
  const auto& clocks = doc["clocks"];
  EXPECT_TRUE(clocks["measured"].get<bool>());
  EXPECT_NEAR(clocks["sm_mhz"].get<double>(), c.sm_clock_hz / 1e6, 1e-6);
  EXPECT_NEAR(clocks["max_sm_mhz"].get<double>(), *run.device.sm_clock_khz / 1e3, 1e-9);
  EXPECT_EQ(clocks["note"].is_null(), !slow) << clocks.dump();
  const std::string table = lab_table(run, {});
  EXPECT_NE(table.find(counters_ratio_cell(run.rows[0].counters, run.rows[0].bytes)), std::string::npos) << table;
  EXPECT_EQ(table.find("note: SM clock") != std::string::npos, slow) << table;
}

// The lesson in the table and the JSON is computed from the run's own rows of that experiment only.
TEST(LabReport, LessonsAreComputedFromTheRunsRows) {
  testing::TestRng rng;
  const lab::LabRun run = sample_run(rng);
  lab::LabExperiment copy;
  copy.name = "copy";
  copy.teaches = "teaches";
  copy.articles = "art. 004: a figure";
  std::size_t seen = 0;
  copy.measured = [&](const std::vector<lab::LabRow>& rows) {
    seen = rows.size();
    return rows.empty() ? std::string() : "ms " + std::to_string(rows[0].time_ms);
  };
  const std::string expected =
      "teaches. On this GPU: ms " + std::to_string(run.rows[0].time_ms) + ". Articles: art. 004: a figure.";
  const nlohmann::json doc = nlohmann::json::parse(lab_json(run, {&copy}));
  EXPECT_EQ(doc["experiments"][0]["lesson"], expected);
  EXPECT_EQ(seen, 1u);  // the banks row is not the copy experiment's
  EXPECT_NE(lab_table(run, {&copy}).find(expected), std::string::npos);
  EXPECT_EQ(lab::lab_lesson(copy, {}), "teaches. Run it to measure this GPU. Articles: art. 004: a figure.");
}

}  // namespace
}  // namespace coalesce
