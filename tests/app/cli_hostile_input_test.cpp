// Inputs that once hung the program or made it read without bound, and messages that broke the README's
// promises, through the real executable: each exits with its code and one clear line, quickly and in
// bounded memory.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/services/cuda_services.h"
#include "app/services/interrupt.h"
#include "tests/app/run_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"


namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;
using Args = std::vector<std::string>;

constexpr int kQuick = 20;  // seconds: every refusal here takes milliseconds; a hang runs into this

Args steps_with(const std::string& flag, const std::string& path) {
  return {"--backend", "cpu", "--steps", "1", flag, path};
}

// The peak memory of a run that reads nothing, in KiB. ru_maxrss counts the forked test process until
// exec, so "bounded" is measured against this run rather than as an absolute number.
long baseline_rss_kib() {
  return run_coalesce({"--version"}, kQuick).max_rss_kib;
}

constexpr long kReadAllowanceKib = 64 * 1024;  // far below the gigabytes an unbounded read reaches

TEST(CliHostileInput, FifoInputsAreRefusedWithoutWaiting) {
  TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0666), 0);
  for (const char* flag : {"--scene", "--load-state"})
    expect_one_line(run_coalesce(steps_with(flag, fifo), kQuick), 2, {flag, fifo, "a FIFO", "regular file"});
}

TEST(CliHostileInput, EndlessDevicesAreRefusedWithoutReading) {
  for (const char* device : {"/dev/zero", "/dev/urandom"}) {
    if (!fs::exists(device)) continue;
    for (const char* flag : {"--scene", "--load-state"}) {
      const ProcessResult r = run_coalesce(steps_with(flag, device), kQuick);
      expect_one_line(r, 2, {flag, device, "a character device"});
      EXPECT_LT(r.max_rss_kib, baseline_rss_kib() + kReadAllowanceKib) << "read " << device << " into memory";
    }
  }
}

// A 3 GB sparse file whose header says a few rows: refused on its size, before its data is read.
TEST(CliHostileInput, HugeStateWithASmallHeaderIsRefusedBeforeReading) {
  TestRng rng;
  TempDir dir;
  const std::string path = dir.file("sparse.npy");
  const int rows = rng.uniform_int(1, 20);
  write_npy(path, "<f4", "(" + std::to_string(rows) + ", 7)", bytes_of(random_particles(rng, rows)));
  const auto huge =
      static_cast<off_t>((std::uint64_t{3} << 30) + static_cast<std::uint64_t>(rng.uniform_int(1, 999)));
  ASSERT_EQ(::truncate(path.c_str(), huge), 0);
  const ProcessResult r = run_coalesce(steps_with("--load-state", path), kQuick);
  expect_one_line(r, 2, {path, std::to_string(huge) + " bytes", "truncated or trailing data"});
  EXPECT_LT(r.max_rss_kib, baseline_rss_kib() + kReadAllowanceKib)
      << "the file's data was read before its size was checked";
}

TEST(CliHostileInput, OversizedSceneFileIsRefusedUnread) {
  TestRng rng;
  TempDir dir;
  const std::string path = dir.file("big.toml");
  const std::size_t size = (std::size_t{1} << 20) + static_cast<std::size_t>(rng.uniform_int(1, 1 << 20));
  std::ofstream(path) << "# " << std::string(size, 'x') << "\n";
  expect_one_line(run_coalesce(steps_with("--scene", path), kQuick), 2, {path, "expected at most 1048576"});
}

TEST(CliHostileInput, ControlCharactersInAFileAreShownEscaped) {
  TempDir dir;
  const std::string path = dir.file("esc.toml");
  std::ofstream(path) << "initial = \"plummer\\u001b[2J\\u0007\"\n";
  const ProcessResult r = run_coalesce(steps_with("--scene", path), kQuick);
  expect_one_line(r, 2, {path + ":1:", "\\x1b[2J\\x07"});
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "a raw escape reached the terminal";
  EXPECT_EQ(r.err.find('\x07'), std::string::npos);
}

TEST(CliHostileInput, UnderflowingSceneValueNamesItsLineAndRange) {
  TestRng rng;
  TempDir dir;
  const std::string path = dir.file("tiny.toml");
  const int line = rng.uniform_int(2, 6);
  std::ofstream(path) << "initial = \"cube\"\n"
                      << std::string(static_cast<std::size_t>(line - 2), '\n') << "dt = 1e-300\n";
  expect_one_line(
      run_coalesce(steps_with("--scene", path), kQuick), 2,
      {path + ":" + std::to_string(line) + ":", "'dt' is 1e-300; expected a number from 1e-9 to 1000"});
}

TEST(CliHostileInput, ValuesOutsideTheirRangeNameTheFlagAndTheRange) {
  expect_one_line(run_coalesce({"--backend", "cpu", "--steps", "1", "--softening", "1e-45"}, kQuick), 2,
                  {"--softening 1e-45", "expected a number from 1e-6 to 1000"});
  expect_one_line(run_coalesce({"--backend", "cpu", "--steps", "1000000000001"}, kQuick), 2,
                  {"--steps 1000000000001 is too large", "from 0 to 1000000000000"});
  expect_one_line(run_coalesce({"--backend", "cpu", "--steps", "1", "--particles", "134217729"}, kQuick), 2,
                  {"--particles 134217729 is too large", "from 1 to 134217728"});
  expect_one_line(run_coalesce({"bench", "--particles", "4096,134217729"}, kQuick), 2,
                  {"--particles 134217729 is too large"});
  for (const char* flag : {"--scene", "--dt", "--softening", "--seed"})
    expect_one_line(run_coalesce({"bench", flag, "1"}, kQuick), 2, {flag, "not an option of coalesce bench"});
}

TEST(CliHostileInput, AttractorsSolverWithoutAttractorsBorrowsTheSwirlSet) {
  TestRng rng;
  const std::string n = std::to_string(rng.uniform_int(2, 500));
  const ProcessResult r = run_coalesce(
      {"--backend", "cpu", "--scene", "plummer", "--solver", "attractors", "--particles", n, "--steps", "3"},
      kQuick);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(r.err_lines().size(), 1u) << r.err;
  EXPECT_NE(r.err.find("swirl preset's 4"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("attractors, N=" + n + ", steps=3"), std::string::npos) << r.out;
}

TEST(CliHostileInput, LabWithoutADeviceSaysWhyInOneLine) {
  if (count_cuda_devices(nullptr) > 0) GTEST_SKIP() << "skipped: a CUDA device is present, so the lab runs";
  const ProcessResult r = run_coalesce({"lab", "--only", "copy", "--size", "256"}, kQuick);
  expect_one_line(r, 1, {"lab needs a CUDA device"});
  const std::string line = r.err_lines().empty() ? "" : r.err_lines()[0];
  EXPECT_TRUE(line.find("install") != std::string::npos || line.find("build it") != std::string::npos)
      << "no fix in: " << line;
}

// Ctrl-C during --steps: the run stops after the step in progress, saves, says so and exits 130.
TEST(CliHostileInput, CtrlCStopsStepsAndSavesTheState) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file("state.npy");
  const int n = rng.uniform_int(200, 400);
  ChildSetup interrupt;
  interrupt.on_started = [](pid_t pid) {
    if (wait_for_sigint_handler(pid, kQuick)) ::kill(pid, SIGINT);
  };
  // --forces one-sided: no auto measurement before the step, which a stop signal would end (issue 41), so the
  // first signal lands in the step and not before it.
  const ProcessResult r = run_coalesce({"--backend", "cpu", "--cpu-target", "scalar", "--scene", "plummer",
                                        "--forces", "one-sided", "--particles", std::to_string(n), "--steps",
                                        "1000000000", "--save-state", state},
                                       kQuick * 3, interrupt);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted (SIGINT): stopping after this step"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("of 1000000000 (interrupted by SIGINT)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("state saved to " + state), std::string::npos) << r.out;
  EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28) << "the saved state is whole";
}

TEST(CliHostileInput, SecondCtrlCExitsAtOnceAndSavesNothing) {
  TempDir dir;
  const std::string state = dir.file("state.npy");
  ChildSetup interrupt;
  interrupt.on_started = [](pid_t pid) {
    if (!wait_for_sigint_handler(pid, kQuick)) return;
    // Into the first step: the handler is installed before the set-up (about 0.4 s here at N=60000, a few
    // times that under ASan), and a signal before the first step ends the run at once, saving.
    ::usleep(2500 * 1000);
    ::kill(pid, SIGINT);
    // Past the window in which the same signal again is a repeat (app/services/interrupt.h), with room for a
    // loaded machine's delay in handling the first, and still inside the same step.
    ::usleep(static_cast<useconds_t>(kRepeatWindowNs / 1000 + 500000));
    ::kill(pid, SIGINT);
  };
  // All-pairs on the CPU's scalar reference loop at 60000 bodies per 2 hardware threads' worth: one step
  // takes seconds on any machine (N^2 work over the threads), so both signals land inside the first (the
  // SIMD loops would finish a step in a fraction of a second). A fixed 60000 took 0.75 s
  // a step on the 16 threads of the H200 machine, and the second signal sometimes came after it.
  const unsigned threads = std::max(2u, std::thread::hardware_concurrency());
  const int n = static_cast<int>(60000 * std::sqrt(threads / 2.0));
  // --forces one-sided: no auto measurement before the step, which a stop signal would end (issue 41), so the
  // first signal lands in the step and not before it.
  const ProcessResult r = run_coalesce({"--backend", "cpu", "--cpu-target", "scalar", "--scene", "plummer",
                                        "--forces", "one-sided", "--particles", std::to_string(n), "--steps",
                                        "1000000000", "--save-state", state},
                                       kQuick * 3, interrupt);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("interrupted again (SIGINT), exiting now: --save-state " + state + " was not written"),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(state));
}

}  // namespace
}  // namespace coalesce::testing
