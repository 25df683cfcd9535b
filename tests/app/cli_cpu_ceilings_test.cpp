// coalesce bench on the CPU through the real executable (issue 30): every memory-bound row names the ceiling
// that moves bytes as its kernel does and its % is of that ceiling, in the table and the JSON; the ceilings
// are measured in the run and said in the header; the all-pairs rows count their partial sums or staged rows.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

#include "sim/byte_counts.h"
#include "sim/memory_ceiling.h"
#include "tests/app/run_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using nlohmann::json;

std::string expected_ceiling(const std::string& kernel) {
  return kernel == "pack" || kernel == "convert" ? "to-other" : "in-place";
}

TEST(CliCpuCeilings, EachRowIsComparedWithTheCeilingThatMovesBytesAsItsKernelDoes) {
  testing::TestRng rng;
  testing::TempDir dir;
  const std::string out = dir.file("run.json");
  const int n = 4096 * rng.uniform_int(4, 32);
  const std::string layout(to_string(testing::random_layout(rng)));
  const auto run =
      testing::run_coalesce({"bench", "--backend", "cpu", "--solver", "attractors", "--particles",
                             std::to_string(n), "--layouts", layout, "--repeats", "2", "--json", out});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(testing::read_file(out));
  const json& method = doc.at("method").at("ceilings");
  const json& measured = doc.at("device").at("cpu").at("ceilings");
  for (const CeilingInfo& c : kCeilingTable) {
    const std::string name(c.name);
    const json& m = measured.at(name);
    EXPECT_GT(m.at("gbps").get<double>(), 0.0) << name;
    EXPECT_LE(m.at("min_gbps").get<double>(), m.at("gbps").get<double>()) << name;
    EXPECT_GE(m.at("max_gbps").get<double>(), m.at("gbps").get<double>()) << name;
    EXPECT_EQ(method.at(name).at("gbps"), m.at("gbps")) << name;
    // How it was measured: the row's words (the copy's sentence names memcpy).
    const std::string how = method.at(name).at("method");
    EXPECT_NE(how.find(c.ceiling == Ceiling::Copy ? std::string("memcpys") : std::string(c.cpu_method)),
              std::string::npos)
        << how;
    // The header says each ceiling with its GB/s.
    char text[64];
    std::snprintf(text, sizeof text, "%s %.1f GB/s", name.c_str(), m.at("gbps").get<double>());
    EXPECT_NE(run.out.find(text), std::string::npos) << text << " not in\n" << run.out;
  }
  EXPECT_EQ(measured.at("copy").at("gbps"), doc.at("device").at("copy_peak_gbps"));
  int rows = 0;
  for (const json& row : doc.at("rows")) {
    const std::string kernel = row.at("kernel");
    const std::string ceiling = expected_ceiling(kernel);
    SCOPED_TRACE(row.dump());
    EXPECT_EQ(row.at("ceiling"), ceiling);
    // The start-up ceiling, or for a row that moves fewer bytes the same ceiling at the row's size (issue
    // 41).
    const CeilingInfo& info = *std::find_if(kCeilingTable.begin(), kCeilingTable.end(),
                                            [&](const CeilingInfo& c) { return c.name == ceiling; });
    const double startup_bytes = static_cast<double>(info.buffers_read + info.buffers_written) *
                                 doc.at("device").at("cpu").at("copy").at("buffer_bytes").get<double>();
    const double ceiling_bytes = row.at("ceiling_bytes").get<double>();
    EXPECT_EQ(ceiling_bytes, std::min(startup_bytes, ceiling_bytes));
    if (ceiling_bytes == startup_bytes) {
      EXPECT_EQ(row.at("ceiling_gbps"), measured.at(ceiling).at("gbps"));
    }
    const double percent = 100.0 * row.at("gbps").get<double>() / row.at("ceiling_gbps").get<double>();
    EXPECT_NEAR(row.at("percent_of_ceiling").get<double>(), percent, 1e-9 * percent);
    ++rows;
  }
  EXPECT_GT(rows, 0);
  // The table: each row's line carries its % of that ceiling and the ceiling's name.
  std::istringstream lines(run.out);
  int printed = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("attractors", 0) != 0) continue;
    std::istringstream words(line);
    std::string solver, particles, row_layout, precision, kernel;
    words >> solver >> particles >> row_layout >> precision >> kernel;
    EXPECT_NE(line.find("% " + expected_ceiling(kernel)), std::string::npos) << line;
    ++printed;
  }
  EXPECT_EQ(printed, rows);
}

TEST(CliCpuCeilings, AllPairsRowsCountTheirScratchBesideTheState) {
  testing::TestRng rng;
  testing::TempDir dir;
  const std::string out = dir.file("pairs.json");
  const int n = rng.uniform_int(200, 3000);
  const Layout layout = testing::random_layout(rng);
  const auto run = testing::run_coalesce({"bench", "--backend", "cpu", "--solver", "all-pairs", "--particles",
                                          std::to_string(n), "--layouts", std::string(to_string(layout)),
                                          "--repeats", "1", "--json", out});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(testing::read_file(out));
  for (const json& row : doc.at("rows")) {
    SCOPED_TRACE(row.dump());
    EXPECT_TRUE(row.at("ceiling").is_null());  // compute bound: no ceiling
    EXPECT_TRUE(row.at("percent_of_ceiling").is_null());
    const double state =
        bytes_moved(KernelKind::Forces, layout, ForceMethod::OneSidedAllPairs, n, Precision::Fp32);
    EXPECT_DOUBLE_EQ(row.at("bytes").get<double>() - row.at("scratch_bytes").get<double>(), state);
    if (row.at("variant") == "mutual") {
      EXPECT_GT(row.at("scratch_bytes").get<double>(), 0.0);
    }
  }
}

}  // namespace
}  // namespace coalesce
