// A memory-bound row that moved its bytes faster than its ceiling says so, in the table and the JSON, rather
// than show a share of a limit it beat (issue 41: a CPU pack just past the cache read up to 140%).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "app/bench/bench_report.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

BenchRow memory_row(const std::string& kernel, double percent) {
  BenchRow row{};
  row.solver = ForceMethod::Attractors;
  row.particles = 1 << 20;
  row.kernel = kernel;
  row.samples = 9;
  row.median_ms = row.min_ms = row.max_ms = 1.0;
  row.bytes = 1e9;
  row.gbps = 1000.0;
  row.ceiling = "to-other";
  row.percent_of_ceiling = percent;
  row.ceiling_gbps = 1000.0 * 100.0 / percent;
  return row;
}

std::string table_of(const BenchResult& result) {
  std::FILE* out = std::tmpfile();
  print_bench_table(result, out);
  std::string text(static_cast<std::size_t>(std::ftell(out)), '\0');
  std::rewind(out);
  const std::size_t got = std::fread(text.data(), 1, text.size(), out);
  std::fclose(out);
  text.resize(got);
  return text;
}

TEST(BenchAboveCeiling, ARowThatBeatsItsCeilingSaysSo) {
  testing::TestRng rng;
  const double below = rng.uniform(5.0f, 99.0f), above = rng.uniform(100.5f, 400.0f);
  BenchResult result{};
  result.rows = {memory_row("integrate", below), memory_row("pack", above)};
  const nlohmann::json json = nlohmann::json::parse(bench_json(result));
  EXPECT_EQ(json.at("rows")[0].at("above_ceiling"), false);
  EXPECT_EQ(json.at("rows")[1].at("above_ceiling"), true);
  const std::string table = table_of(result);
  char marked[32];
  std::snprintf(marked, sizeof marked, "!%.1f%% ", above);
  EXPECT_NE(table.find(marked), std::string::npos) << table;
  std::snprintf(marked, sizeof marked, "!%.1f%% ", below);
  EXPECT_EQ(table.find(marked), std::string::npos) << table;
  EXPECT_NE(table.find("! 1 row beats its ceiling"), std::string::npos) << table;
}

}  // namespace
}  // namespace coalesce
