// Every way a --steps run ends (issues 19 and 30, docs/reliability.md), through the real executable: SIGINT,
// SIGTERM and SIGHUP stop after the step, save and exit 128+signal; a new request after the first exits at
// once and its one line says truthfully what became of --save-state, while a repeat within the window, a
// later SIGHUP and a SIGHUP ignored from the start (nohup) do not; success lines show control characters
// escaped. A closed terminal and a signalled timeout, many times over: cli_hangup_test.cpp.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "app/services/interrupt.h"
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

// A new request after `first`: SIGINT or SIGTERM, not `first` (the same one again within the window would be
// a repeat, and SIGHUP never is one).
int new_request_after(int first, TestRng& rng) {
  if (first == SIGINT) return SIGTERM;
  if (first == SIGTERM) return SIGINT;
  return rng.uniform_int(0, 1) ? SIGINT : SIGTERM;
}

// The scalar reference loop: its all-pairs steps take seconds at these N, so the tests' signals land
// inside a step (the SIMD loops would finish one in a fraction of a second). One-sided, named: auto would
// first time steps of both schemes, minutes at N = 60,000 under ASan (278 s of a 300 s limit in CI).
Args endless_steps(int particles, const std::string& state) {
  return {"--backend",  "cpu",        "--cpu-target",   "scalar", "--scene", "plummer", "--forces", "one-sided",
          "--particles", std::to_string(particles), "--steps", "1000000000", "--save-state", state};
}

// Whether process `pid` still runs (a zombie, not yet reaped, does not).
bool still_running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string pid_field, name, state;
  stat >> pid_field >> name >> state;
  return !state.empty() && state != "Z";
}

std::string first_stop_line(int signal) {
  return "coalesce: interrupted (" + signal_name(signal) + "): stopping after this step (" +
         (signal == SIGINT ? "Ctrl-C again" : "Ctrl-C or SIGTERM") + " quits at once)";
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
  const int first = random_stop_signal(rng), second = new_request_after(first, rng);
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
  const int first = random_stop_signal(rng), second = new_request_after(first, rng);
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

// The rule itself (docs/reliability.md, "Signals"), at random times either side of the window.
TEST(CliRunEnd, OnlyANewRequestQuitsAtOnce) {
  TestRng rng;
  for (int i = 0; i < 100; ++i) {
    const int first = random_stop_signal(rng), later = random_stop_signal(rng);
    const long long since = static_cast<long long>(rng.uniform(0.0f, 3.0f) * kRepeatWindowNs);
    SCOPED_TRACE(signal_name(first) + ", " + signal_name(later) + " " + std::to_string(since) + " ns on");
    const bool new_request = later != SIGHUP && (later != first || since >= kRepeatWindowNs);
    EXPECT_EQ(quits_at_once(first, later, since), new_request);
  }
  EXPECT_FALSE(quits_at_once(SIGINT, SIGINT, kRepeatWindowNs - 1));
  EXPECT_TRUE(quits_at_once(SIGINT, SIGINT, kRepeatWindowNs));
  EXPECT_TRUE(quits_at_once(SIGTERM, SIGINT, 0));
  EXPECT_FALSE(quits_at_once(SIGINT, SIGHUP, 100 * kRepeatWindowNs));
}

// The first signal again at once (a wrapper forwarding it twice, bash and the kernel): one request.
TEST(CliRunEnd, TheSameSignalAgainWithinTheWindowIsOneRequest) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file("r" + std::to_string(rng.uniform_int(0, 99999)) + ".npy");
  const int n = rng.uniform_int(200, 400), signal = random_stop_signal(rng);
  const int gap_us = rng.uniform_int(0, static_cast<int>(kRepeatWindowNs / 4000));  // well inside the window
  ChildSetup stop;
  stop.on_started = [&](pid_t pid) {
    if (!wait_for_signal_handler(pid, signal, 60)) return;
    ::usleep(static_cast<useconds_t>(rng.uniform_int(0, 1000000)));
    for (int copies = rng.uniform_int(2, 3); copies > 0; --copies) {
      ::kill(pid, signal);
      ::usleep(static_cast<useconds_t>(gap_us));
    }
  };
  const ProcessResult r = run_coalesce(endless_steps(n, state), 120, stop);
  SCOPED_TRACE(signal_name(signal) + " repeated " + std::to_string(gap_us) + " us apart");
  EXPECT_EQ(r.exit_code, 128 + signal) << r.err;
  EXPECT_EQ(r.err_lines(), std::vector<std::string>{first_stop_line(signal)}) << r.err;
  EXPECT_NE(r.out.find("state saved to " + state), std::string::npos) << r.out;
  EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28);
}

// Ctrl-C or SIGTERM, then the terminal closes while the step runs (a SIGHUP or two): the run still saves
// and exits for the first signal.
TEST(CliRunEnd, ASighupAfterTheFirstSignalNeverQuitsAtOnce) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file("h" + std::to_string(rng.uniform_int(0, 99999)) + ".npy");
  const std::string old = random_bytes(rng, rng.uniform_int(1, 3000));
  std::ofstream(state, std::ios::binary) << old;
  const int first = rng.uniform_int(0, 1) ? SIGINT : SIGTERM;
  const int hangups = rng.uniform_int(1, 3);
  const unsigned threads = std::max(2u, std::thread::hardware_concurrency());
  const int n = static_cast<int>(60000 * std::sqrt(threads / 2.0));
  bool hung_up_while_running = false;
  ChildSetup stop;
  stop.on_started = [&](pid_t pid) {
    if (!wait_for_signal_handler(pid, first, 20)) return;
    ::usleep(2500 * 1000);  // into the first step, seconds long at N=60000 (as above)
    ::kill(pid, first);
    for (int i = 0; i < hangups; ++i) {
      ::usleep(static_cast<useconds_t>(rng.uniform_int(50000, 700000)));  // within the window and past it
      ::kill(pid, SIGHUP);
    }
    hung_up_while_running = still_running(pid) && npy_payload(state).empty();  // the old file has no header
  };
  const ProcessResult r = run_coalesce(endless_steps(n, state), 300, stop);
  EXPECT_TRUE(hung_up_while_running) << "the run ended before the hang-ups: nothing was tested";
  EXPECT_EQ(r.exit_code, 128 + first) << r.err;
  EXPECT_EQ(r.err_lines(), std::vector<std::string>{first_stop_line(first)}) << r.err;
  EXPECT_NE(r.out.find("(interrupted by " + signal_name(first) + ")"), std::string::npos) << r.out;
  EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28) << "the state was not saved";
  EXPECT_EQ(other_files(dir, {fs::path(state).filename()}), std::vector<std::string>{});
}

// `nohup coalesce …`: SIGHUP was ignored when the program started, so a closed terminal must not stop the
// run; SIGTERM still does, saving.
TEST(CliRunEnd, UnderNohupAHangupDoesNotStopTheRun) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file("n" + std::to_string(rng.uniform_int(0, 99999)) + ".npy");
  const int n = rng.uniform_int(200, 400);
  std::vector<std::string> args{"sh", "-c", "exec nohup \"$0\" \"$@\" </dev/null", coalesce_executable()};
  for (const std::string& a : endless_steps(n, state)) args.push_back(a);
  bool ran_on = false, hangup_caught = true;
  ChildSetup stop;
  stop.on_started = [&](pid_t pid) {
    if (!wait_for_signal_handler(pid, SIGTERM, 60)) return;  // sh, then nohup, then coalesce: one pid
    hangup_caught = has_signal_handler(pid, SIGHUP);
    for (int i = rng.uniform_int(1, 3); i > 0; --i) ::kill(pid, SIGHUP);
    ::usleep(static_cast<useconds_t>(rng.uniform_int(200000, 800000)));
    ran_on = still_running(pid) && npy_payload(state).empty();
    ::kill(pid, SIGTERM);
  };
  const ProcessResult r = run_process(args, {}, {}, 120, stop);
  EXPECT_FALSE(hangup_caught) << "the program caught the SIGHUP nohup ignored";
  EXPECT_TRUE(ran_on) << "a SIGHUP under nohup ended the run";
  EXPECT_EQ(r.exit_code, 143) << r.err;
  EXPECT_EQ(r.err_lines(), std::vector<std::string>{first_stop_line(SIGTERM)}) << r.err;
  EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28);
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
