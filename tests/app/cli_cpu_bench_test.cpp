// coalesce bench on the CPU backend through the real executable, as a user without a GPU meets it: unknown
// values are null in the JSON and never printed as 0, the copy ceiling says what it is, the no-GPU notice is
// one short line, and two identical runs compare as the same while a 3x change does not.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/services/backend_factory.h"
#include "app/bench/bench_compare.h"
#include "app/services/cuda_services.h"
#include "sim/force_method.h"
#include "tests/app/run_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using nlohmann::json;
using testing::run_coalesce;
using testing::TestRng;

json read_json(const std::string& path) {
  return json::parse(testing::read_file(path));
}

// A zero printed as a measurement: "0 MHz", "0.0 GB/s", "0 bit".
bool prints_a_zero(const std::string& text) {
  return std::regex_search(text, std::regex(R"((^|[^0-9.])0(\.0+)? ?(MHz|GB/s|bit)\b)"));
}

TEST(CliCpuBench, UnknownValuesAreNullAndNoZeroIsPrinted) {
  TestRng rng;
  testing::TempDir dir;
  const std::string out = dir.file("cpu.json");
  const std::string layout(to_string(testing::random_layout(rng)));
  const auto run = run_coalesce({"bench", "--backend", "cpu", "--particles", std::to_string(rng.uniform_int(256, 2048)),
                                 "--layouts", layout, "--repeats", "2", "--json", out});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = read_json(out);
  const json& device = doc.at("device");
  EXPECT_FALSE(device.at("gpu").get<bool>());
  // What a CPU does not have is unknown, written null, not 0.
  for (const char* key : {"sm_clock_khz", "memory_clock_khz", "bus_width_bits", "theoretical_peak_gbps", "driver",
                          "cuda_driver", "cuda_runtime"})
    EXPECT_TRUE(device.at(key).is_null()) << key << ": " << device.at(key);
  EXPECT_TRUE(doc.at("clocks").at("max_sm_mhz").is_null());
  EXPECT_TRUE(doc.at("clocks").at("max_memory_mhz").is_null());
  // The CPU's facts instead; the issue limit is null exactly when the clock or the instruction count is.
  const json& cpu = device.at("cpu");
  ASSERT_TRUE(cpu.is_object()) << device;
  EXPECT_GE(cpu.at("threads").get<int>(), 1);
  EXPECT_EQ(cpu.at("copy").at("threads"), cpu.at("threads"));
  // Each precision's all-pairs limit is null exactly when the clock or the loop's count is.
  for (const char* precision : {"fp32", "fp64"}) {
    const json& loop = cpu.at("force_loops").at(precision);
    const bool limit_known = !cpu.at("clock_mhz").is_null() && !loop.at("fp_pipe_instructions").is_null();
    EXPECT_EQ(loop.at("issue_limit_interactions_per_second").is_null(), !limit_known) << cpu;
  }
  EXPECT_EQ(cpu.at("target").get<std::string>(), to_string(best_cpu_target()));
  for (const json& value : cpu) {
    if (value.is_number()) {
      EXPECT_GT(value.get<double>(), 0.0) << cpu;
    }
  }
  EXPECT_GT(device.at("copy_peak_gbps").get<double>(), 0.0);
  EXPECT_NE(doc.at("method").at("copy_peak").get<std::string>().find("CPU memory copy"), std::string::npos);

  // The table: no zero for an unknown, the ceiling named for what it is, no GPU words.
  EXPECT_FALSE(prints_a_zero(run.out)) << run.out;
  EXPECT_NE(run.out.find("CPU memory copy, " + std::to_string(cpu.at("threads").get<int>()) + " thread"),
            std::string::npos)
      << run.out;
  for (const char* gpu_word : {"device-to-device", "SM clock", "theoretical peak", "driver"})
    EXPECT_EQ(run.out.find(gpu_word), std::string::npos) << gpu_word << " in\n" << run.out;
  // The all-pairs forces rows, one per scheme, show interactions/s and pair evaluations/s, the one-sided row
  // also its % of the issue limit (when the limit is known: the limit counts the one-sided loop), and leave
  // GB/s and % of copy empty.
  const bool limit_known = !cpu.at("force_loops").at("fp32").at("issue_limit_interactions_per_second").is_null();
  int forces = 0;
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("all-pairs", 0) != 0) continue;
    ++forces;
    EXPECT_NE(line.find("forces"), std::string::npos) << line;  // the all-pairs sweep times the forces alone
    const bool with_limit = limit_known && line.find("mutual") == std::string::npos;
    // Past the cv column's %: at most the limit's %, after the rates.
    EXPECT_EQ(line.find('%', line.find('%') + 1), with_limit ? line.rfind('%') : std::string::npos)
        << "a % of copy in: " << line;
    const std::string rate = R"([0-9]\.[0-9]{3}e\+[0-9]+)";
    EXPECT_TRUE(std::regex_search(
        line, std::regex(rate + R"(\s+)" + rate + (with_limit ? R"(\s+[0-9]+\.[0-9]%\s*$)" : R"(\s*$)"))))
        << line;
  }
  EXPECT_EQ(forces, static_cast<int>(family_rows(ForceMethod::OneSidedAllPairs)));
}

TEST(CliCpuBench, NoGpuNoticeIsOneShortLineOnce) {
  if (count_cuda_devices(nullptr) > 0) GTEST_SKIP() << "a CUDA device is present: no notice to check";
  TestRng rng;
  const auto run = run_coalesce({"bench", "--particles", std::to_string(rng.uniform_int(64, 512)), "--repeats", "1",
                                 "--layouts", std::string(to_string(testing::random_layout(rng)))});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  std::vector<std::string> notices;
  for (const std::string& line : run.err_lines())
    if (line.find("running on the CPU") != std::string::npos) notices.push_back(line);
  ASSERT_EQ(notices.size(), 1u) << run.err;  // both solvers make a backend; one notice
  EXPECT_EQ(notices[0].find('('), std::string::npos) << notices[0];
  EXPECT_LE(notices[0].size(), 80u) << notices[0];
}

TEST(CliCpuBench, NoticeKeepsTheCauseAndDropsItsParentheses) {
  TestRng rng;
  const std::string cause = std::string("no usable NVIDIA driver").substr(0, static_cast<std::size_t>(rng.uniform_int(5, 24)));
  for (const std::string& why : {cause, cause + ": details (fix it)", cause + " (more (nested))"}) {
    const std::string notice = cpu_fallback_notice(why);
    EXPECT_EQ(notice, "running on the CPU backend: " + cause) << why;
  }
  EXPECT_EQ(cpu_fallback_notice(""), "running on the CPU backend: no CUDA device");
}

// One bench run for the comparisons: all-pairs forces at 4096 (milliseconds a call) and the attractors'
// memory-bound rows at 262,144 (hundreds of microseconds to milliseconds), default CPU repeats.
std::vector<std::string> bench_runs(const testing::TempDir& dir, const std::string& name, const std::string& layout) {
  std::vector<std::string> files;
  for (const auto& [solver, n] : {std::pair<std::string, std::string>{"all-pairs", "4096"}, {"attractors", "262144"}}) {
    files.push_back(dir.file(name + "-" + solver + ".json"));
    const auto run = run_coalesce({"bench", "--backend", "cpu", "--solver", solver, "--particles", n, "--layouts",
                                   layout, "--json", files.back()});
    EXPECT_EQ(run.exit_code, 0) << run.err;
  }
  return files;
}

json compare(const testing::TempDir& dir, const std::string& a, const std::string& b) {
  const std::string out = dir.file("compare.json");
  const auto run = run_coalesce({"bench", "--compare", a, b, "--json", out});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return read_json(out);
}

// Run by ctest alone (tests/CMakeLists.txt: cpu_bench_identical_runs, RUN_SERIAL): beside another test on
// 2 cores it would measure that test's load (run it by hand with --gtest_also_run_disabled_tests).
TEST(CliCpuBench, DISABLED_TwoIdenticalRunsCompareTheSame) {
  TestRng rng;
  testing::TempDir dir;
  const std::string layout(to_string(testing::random_layout(rng)));
  const std::vector<std::string> a = bench_runs(dir, "a", layout), b = bench_runs(dir, "b", layout);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const json c = compare(dir, a[i], b[i]);
    EXPECT_EQ(c.at("summary").at("faster"), 0) << c.at("rows").dump(1);
    EXPECT_EQ(c.at("summary").at("slower"), 0) << c.at("rows").dump(1);
    EXPECT_GT(c.at("summary").at("same").get<int>(), 0);
    for (const json& row : c.at("rows")) EXPECT_TRUE(row.at("cpu_rule").get<bool>()) << row;
  }
}

// A real run against itself made 3x slower or faster (times scaled, throughputs with them): every row past
// the CPU's microsecond floor is flagged, the right way.
TEST(CliCpuBench, AThreefoldChangeIsFlagged) {
  TestRng rng;
  testing::TempDir dir;
  const std::string layout(to_string(testing::random_layout(rng)));
  for (const std::string& a : bench_runs(dir, "a", layout)) {
    const double factor = rng.uniform_int(0, 1) ? 3.0 : 1.0 / 3;  // B's time / A's: past the CPU's 2.5x floor
    json doc = read_json(a);
    for (json& row : doc.at("rows")) {
      for (const char* key : {"median_ms", "min_ms", "max_ms"}) row[key] = row.at(key).get<double>() * factor;
      for (const char* key : {"gbps", "percent_of_copy", "interactions_per_second"})
        row[key] = row.at(key).get<double>() / factor;
    }
    const std::string b = dir.file("b.json");
    std::ofstream(b) << doc.dump();
    const json c = compare(dir, a, b);
    int flagged = 0;
    for (const json& row : c.at("rows")) {
      const double us = row.at("microseconds_apart").get<double>();
      const std::string want = us <= kCompareCpuFloorMicroseconds ? "same" : factor > 1 ? "slower" : "faster";
      EXPECT_EQ(row.at("verdict"), want) << row;
      flagged += want != "same" ? 1 : 0;
    }
    EXPECT_GT(flagged, 0) << "no row past the floor: the test checks nothing";
  }
}

// --cpu-target: each target this CPU runs is the one the run reports; a name that is no target, and a
// target this CPU lacks, end in exit 2 with one line naming the fix.
TEST(CliCpuBench, CpuTargetIsTheOneTheRunReportsAndBadOnesAreRefused) {
  TestRng rng;
  testing::TempDir dir;
  for (const CpuTargetInfo& row : kCpuTargetTable) {
    const std::string name(row.name);
    const std::vector<std::string> args = {"bench", "--backend", "cpu", "--solver", "all-pairs", "--particles",
                                           std::to_string(rng.uniform_int(16, 300)), "--layouts", "soa",
                                           "--repeats", "1", "--cpu-target", name, "--json", dir.file(name + ".json")};
    const auto run = run_coalesce(args);
    if (!cpu_target_supported(row.target)) {
      EXPECT_EQ(run.exit_code, 2) << name;
      EXPECT_NE(run.err.find("this CPU does not run"), std::string::npos) << run.err;
      EXPECT_NE(run.err.find("--cpu-target best"), std::string::npos) << run.err;
      continue;
    }
    ASSERT_EQ(run.exit_code, 0) << name << ": " << run.err;
    const json doc = read_json(dir.file(name + ".json"));
    EXPECT_EQ(doc.at("device").at("cpu").at("target"), name);
    EXPECT_NE(doc.at("backend").get<std::string>().find(std::string(row.label)), std::string::npos) << doc.at("backend");
    EXPECT_NE(run.out.find("SIMD: " + std::string(row.label)), std::string::npos) << run.out;
  }
  std::string word;
  for (int i = rng.uniform_int(3, 8); i > 0; --i) word += static_cast<char>('a' + rng.uniform_int(0, 25));
  const auto bad = run_coalesce({"bench", "--backend", "cpu", "--cpu-target", word});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--cpu-target must be one of " + std::string(kCpuTargetChoices)), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace coalesce
