// The lab's table and JSON (no device needed): every row appears, failures say FAIL, shared-memory rows
// carry no % of copy, and the JSON round-trips through a parser with the run's facts.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "app/device_report.h"
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
  run.date_utc = "2026-11-21T00:00:00Z";
  run.copy_gbps = rng.uniform(500.0f, 3000.0f);
  const lab::LabContext context{run.settings, run.copy_gbps};
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
  const lab::LabContext context{lab::LabSettings{}, rng.uniform(500.0f, 3000.0f)};
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
  ASSERT_EQ(doc["rows"].size(), run.rows.size());
  EXPECT_DOUBLE_EQ(doc["rows"][0]["gbps"].get<double>(), run.rows[0].gbps);
  EXPECT_TRUE(doc["rows"][0]["check_ok"].get<bool>());
  EXPECT_TRUE(doc["rows"][1]["pct_copy"].is_null());
  EXPECT_FALSE(doc["rows"][1]["check_ok"].get<bool>());
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
