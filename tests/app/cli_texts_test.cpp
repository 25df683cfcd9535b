// What --help, --version and the run lines say is what the program does (issue 30 §5), through the real
// executable on fresh random inputs: --save-state's dtype, --version with --cpu-target, "1 thread", and
// one "coalesce: " per line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "tests/app/run_process.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr int kQuick = 60;
constexpr int kRun = 240;  // seconds for a run that steps: the CPU backend measures its copy ceiling first

std::string line_with(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find(needle) != std::string::npos) return line;
  return "";
}

// "AVX-512" -> "avx512": a target's label as its --cpu-target name.
std::string as_name(std::string label) {
  label.erase(std::remove(label.begin(), label.end(), '-'), label.end());
  std::transform(label.begin(), label.end(), label.begin(), [](unsigned char c) { return std::tolower(c); });
  return label;
}

TEST(CliTexts, HelpSaysWhatSaveStateWritesInEachPrecision) {
  TestRng rng;
  TempDir dir;
  const std::string help = line_with(run_coalesce({"--help"}, kQuick).out, "--save-state PATH");
  EXPECT_NE(help.find("float32"), std::string::npos) << help;
  EXPECT_NE(help.find("float64 with --precision fp64"), std::string::npos) << help;
  for (const auto& [precision, descr, width] :
       {std::tuple<std::string, std::string, int>{"fp32", "<f4", 4}, {"fp64", "<f8", 8}}) {
    const int n = rng.uniform_int(2, 300);
    const std::string path = dir.file(precision + ".npy");
    const ProcessResult r =
        run_coalesce({"--backend", "cpu", "--steps", std::to_string(rng.uniform_int(0, 3)), "--particles",
                      std::to_string(n), "--precision", precision, "--save-state", path},
                     kRun);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string bytes = read_file(path);
    ASSERT_GT(bytes.size(), 10u);
    const std::size_t header =
        10 + static_cast<unsigned char>(bytes[8]) + 256u * static_cast<unsigned char>(bytes[9]);
    EXPECT_NE(bytes.substr(0, header).find("'descr': '" + descr + "'"), std::string::npos)
        << bytes.substr(0, header);
    EXPECT_EQ(bytes.size(), header + static_cast<std::size_t>(n) * 7 * width) << precision;
  }
}

// --version prints the SIMD target; with --cpu-target it prints that one, said to be forced, never the best.
TEST(CliTexts, VersionSaysTheTargetCpuTargetForces) {
  const ProcessResult plain = run_coalesce({"--version"}, kQuick);
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const std::string runs = line_with(plain.out, "runs here: ");
  const std::size_t start = runs.find("runs here: ") + 11;
  std::istringstream list(runs.substr(start, runs.find(';', start) - start));
  int targets = 0;
  for (std::string name; std::getline(list >> std::ws, name, ',');) {
    ++targets;
    const ProcessResult r = run_coalesce({"--version", "--cpu-target", name}, kQuick);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string line = line_with(r.out, "CPU SIMD target: ");
    const std::string label = line.substr(17, line.find(" (") - 17);
    EXPECT_EQ(as_name(label), name) << line;
    EXPECT_NE(line.find("(forced by --cpu-target; best here: "), std::string::npos) << line;
  }
  EXPECT_GE(targets, 1) << plain.out;
  EXPECT_EQ(run_coalesce({"--version", "--cpu-target", "best"}, kQuick).out, plain.out);
}

// Without a device the lab's refusal is one line with one "coalesce: " ("coalesce: coalesce lab ..." once).
TEST(CliTexts, TheLabsRefusalNamesTheProgramOnce) {
  if (cuda_available()) GTEST_SKIP() << "skipped: a CUDA device is present, so the lab runs";
  TestRng rng;
  const ProcessResult r =
      run_coalesce({"lab", "--only", "copy", "--size", std::to_string(256 * rng.uniform_int(1, 4))}, kQuick);
  EXPECT_EQ(r.exit_code, 1);
  ASSERT_EQ(r.err_lines().size(), 1u) << r.err;
  EXPECT_EQ(r.err_lines()[0].rfind("coalesce: the lab needs a CUDA device", 0), 0u) << r.err;
}

// Ranks share a host's threads: enough of them leave each rank one, which the run line names "1 thread".
TEST(CliTexts, OneThreadIsSaidInTheSingular) {
  const unsigned hardware = std::thread::hardware_concurrency();
  const int ranks = static_cast<int>(hardware / 2 + 1);  // hardware / ranks == 1
  if (run_coalesce({"--version"}, kQuick).out.find("mpi") == std::string::npos ||
      run_process({"mpirun", "--version"}).exit_code != 0)
    GTEST_SKIP() << "skipped: this build has no MPI, or no mpirun";
  if (ranks > 16) GTEST_SKIP() << "skipped: " << ranks << " ranks would be needed on this host";
  TestRng rng;
  std::vector<std::string> args{"mpirun", "--oversubscribe", "-n", std::to_string(ranks)};
  if (::geteuid() == 0) args.push_back("--allow-run-as-root");
  for (const std::string& a :
       {coalesce_executable(), std::string("--backend"), std::string("cpu"), std::string("--steps"),
        std::to_string(rng.uniform_int(1, 3)), std::string("--particles"),
        std::to_string(rng.uniform_int(ranks, 500)), std::string("--forces"), std::string("one-sided")})
    args.push_back(a);
  const ProcessResult r = run_process(args, {}, {}, kRun);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("cpu (1 thread, "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("1 threads"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace coalesce::testing
