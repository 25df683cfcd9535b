// Every way a --steps run ends (issue 19, docs/reliability.md), through the real executable: SIGINT,
// SIGTERM and SIGHUP stop after the step, save and exit 128+signal; a second signal exits at once and its
// one line says truthfully what became of --save-state; success lines show control characters escaped.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/app/run_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"
#include "tests/support/scratch_files.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;
using Args = std::vector<std::string>;

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::string signal_name(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP";
}

int random_stop_signal(TestRng& rng) {
  return kStopSignals[rng.uniform_int(0, 2)];
}

// The scalar reference loop: its all-pairs steps take seconds at these N, so the tests' signals land
// inside a step (the SIMD loops would finish one in a fraction of a second).
Args endless_steps(int particles, const std::string& state) {
  return {"--backend",  "cpu",        "--cpu-target",   "scalar", "--scene", "plummer",
          "--particles", std::to_string(particles), "--steps", "1000000000", "--save-state", state};
}

std::string first_stop_line(int signal) {
  return "coalesce: interrupted (" + signal_name(signal) + "): stopping after this step (" +
         (signal == SIGINT ? "Ctrl-C again" : "a second signal") + " quits at once)";
}

TEST(CliRunEnd, EveryStopSignalStopsStepsSavesAndExits128PlusSignal) {
  TestRng rng;
  std::vector<int> order(std::begin(kStopSignals), std::end(kStopSignals));
  std::shuffle(order.begin(), order.end(), rng.engine());
  for (const int signal : order) {
    SCOPED_TRACE(signal_name(signal));
    TempDir dir;
    const std::string state = dir.file("s" + std::to_string(rng.uniform_int(0, 99999)) + ".npy");
    const int n = rng.uniform_int(200, 400);
    ChildSetup stop;
    stop.on_started = [signal](pid_t pid) {
      if (wait_for_signal_handler(pid, signal, 20)) ::kill(pid, signal);
    };
    const ProcessResult r = run_coalesce(endless_steps(n, state), 60, stop);
    EXPECT_EQ(r.exit_code, 128 + signal) << r.err;
    EXPECT_EQ(r.err_lines(), std::vector<std::string>{first_stop_line(signal)}) << r.err;
    EXPECT_NE(r.out.find("of 1000000000 (interrupted by " + signal_name(signal) + ")"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("state saved to " + state), std::string::npos) << r.out;
    EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28) << "the saved state is whole";
    EXPECT_EQ(other_files(dir, {fs::path(state).filename()}), std::vector<std::string>{});
  }
}

// The second signal lands inside the first step (seconds long at N=60000): the state was never written,
// so the previous file must be whole and the line must say so.
TEST(CliRunEnd, SecondSignalBeforeTheSaveSaysThePreviousFileIsUntouched) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file("kept" + std::to_string(rng.uniform_int(0, 99999)) + ".npy");
  const std::string old = random_bytes(rng, rng.uniform_int(1, 3000));
  std::ofstream(state, std::ios::binary) << old;
  const int first = random_stop_signal(rng), second = random_stop_signal(rng);
  ChildSetup stop;
  stop.on_started = [first, second](pid_t pid) {
    if (!wait_for_signal_handler(pid, first, 20)) return;
    // Into the first step: the handler is installed before the set-up (about 0.4 s here at N=60000, a few
    // times that under ASan), and a signal before the first step ends the run at once, saving.
    ::usleep(2500 * 1000);
    ::kill(pid, first);
    ::usleep(200 * 1000);  // signals do not queue: the second comes after the first was handled
    ::kill(pid, second);
  };
  const ProcessResult r = run_coalesce(endless_steps(60000, state), 60, stop);
  EXPECT_EQ(r.exit_code, 128 + second) << r.err;
  EXPECT_EQ(r.err_lines(), (std::vector<std::string>{first_stop_line(first),
                                                    "coalesce: interrupted again (" + signal_name(second) +
                                                        "), exiting now: --save-state " + state +
                                                        " was not written (the previous file is untouched)"}))
      << r.err;
  EXPECT_EQ(read_file(state), old);
  EXPECT_EQ(other_files(dir, {fs::path(state).filename()}), std::vector<std::string>{});
}

// Issue 19's case: the second signal comes after the state was replaced (while the final energy is being
// computed, a fraction of a second at N ~ 10^4): the line must say it was written, not "nothing saved".
TEST(CliRunEnd, SecondSignalAfterTheSaveSaysTheStateWasWritten) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file("w" + std::to_string(rng.uniform_int(0, 99999)) + ".npy");
  const std::string old = random_bytes(rng, rng.uniform_int(1, 3000));
  std::ofstream(state, std::ios::binary) << old;
  const int n = rng.uniform_int(12000, 16000);
  const int first = random_stop_signal(rng), second = random_stop_signal(rng);
  ChildSetup stop;
  stop.on_started = [&, first, second](pid_t pid) {
    if (!wait_for_signal_handler(pid, first, 60)) return;
    ::kill(pid, first);
    // The rename is atomic: once the file holds N rows it is the new state, whole.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (npy_payload(state).size() != static_cast<std::size_t>(n) * 28 &&
           std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ::kill(pid, second);
  };
  const ProcessResult r = run_coalesce(endless_steps(n, state), 120, stop);
  EXPECT_EQ(r.exit_code, 128 + second) << r.err;
  EXPECT_EQ(r.err_lines(), (std::vector<std::string>{first_stop_line(first),
                                                    "coalesce: interrupted again (" + signal_name(second) +
                                                        "), exiting now: --save-state " + state + " was written"}))
      << r.err;
  EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28);
  EXPECT_EQ(other_files(dir, {fs::path(state).filename()}), std::vector<std::string>{});
}

TEST(CliRunEnd, SuccessLineShowsControlCharactersEscaped) {
  TestRng rng;
  TempDir dir;
  const std::string name = "st\x1b[" + std::to_string(rng.uniform_int(1, 40)) + "m.npy";
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--scene", "plummer", "--particles", "64", "--steps", "1", "--save-state",
                    dir.file(name)},
                   60);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string shown = dir.file(name);
  shown.replace(shown.find('\x1b'), 1, "\\x1b");
  EXPECT_NE(r.out.find("state saved to " + shown), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "a raw escape reached the terminal";
  EXPECT_EQ(npy_payload(dir.file(name)).size(), 64u * 28);
}

}  // namespace
}  // namespace coalesce::testing
