// Shared by the test folders that run the real coalesce executable: a scratch directory, the executable's
// path, a file reader and a process runner capturing exit code, stdout and stderr. Header-only: each test
// target defines its own COALESCE_EXECUTABLE (tests/CMakeLists.txt).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/temp_dir.h"

namespace coalesce::testing {

struct ProcessResult {
  int exit_code = -1;    // -1: killed by a signal or timed out
  long max_rss_kib = 0;  // the child's peak resident memory (wait4's ru_maxrss)
  std::string out;
  std::string err;

  // stderr's lines (a final line without '\n' counts too).
  std::vector<std::string> err_lines() const {
    std::vector<std::string> lines;
    std::istringstream stream(err);
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    return lines;
  }
};

// COALESCE_EXECUTABLE_OVERRIDE lets scripts/gpu-session point the tests at a copied binary.
inline std::string coalesce_executable() {
  const char* override_path = std::getenv("COALESCE_EXECUTABLE_OVERRIDE");
  return override_path && *override_path ? override_path : COALESCE_EXECUTABLE;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// What the data-safety tests change in the child before exec, each off by default.
struct ChildSetup {
  long file_size_limit = -1;  // RLIMIT_FSIZE in bytes: writes past it fail with EFBIG, a disk-full stand-in
  // With file_size_limit: leave SIGXFSZ at its default, as a user's shell does (`ulimit -f`), instead of
  // ignoring it; the program must then survive the signal by itself.
  bool default_sigxfsz = false;
  std::string stdout_path;    // stdout goes here (e.g. /dev/full) instead of being captured
  int run_as_uid = -1;        // drop root to this uid (a read-only file is then really unwritable)
  long address_space_limit = -1;  // RLIMIT_AS in bytes: a larger allocation fails, as out of memory would
  // Called in the parent once the child runs, with its pid (to send it signals).
  std::function<void(pid_t)> on_started;
};

// Whether process `pid` has a handler for `signal` installed now, read from /proc/PID/status.
inline bool has_signal_handler(pid_t pid, int signal) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("SigCgt:", 0) != 0) continue;
    const unsigned long long caught = std::stoull(line.substr(7), nullptr, 16);
    return (caught & (1ull << (signal - 1))) != 0;
  }
  return false;
}

// Waits (at most `seconds`) until process `pid` has a handler for `signal` installed, so a test's signal
// reaches the program's handler rather than killing it on the way in.
inline bool wait_for_signal_handler(pid_t pid, int signal, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (!std::filesystem::exists("/proc/" + std::to_string(pid))) return false;
    if (has_signal_handler(pid, signal)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

// Waits (at most `seconds`) until process `pid` has a SIGINT handler installed, read from
// /proc/PID/status, so a test's Ctrl-C reaches the program's handler rather than killing it on the way in.
inline bool wait_for_sigint_handler(pid_t pid, int seconds) {
  return wait_for_signal_handler(pid, SIGINT, seconds);
}

// In a child before exec: the stop signals at their defaults, as a user's interactive shell starts a program,
// whatever this test process inherited (a runner started with nohup, or as a script's background job, passes
// SIGHUP or SIGINT on ignored, and the program rightly keeps a signal ignored at its start).
inline void default_stop_signals() {
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) ::signal(signal, SIG_DFL);
}

// Runs argv (argv[0] looked up on PATH unless it has a '/'); `unset` names environment variables removed
// in the child, `set` holds "NAME=VALUE" entries added to it. Kills it after `timeout_seconds`.
inline ProcessResult run_process(const std::vector<std::string>& arguments,
                                 const std::vector<std::string>& unset = {},
                                 const std::vector<std::string>& set = {}, int timeout_seconds = 240,
                                 const ChildSetup& setup = {}) {
  TempDir capture;
  const std::string out_path = capture.file("stdout"), err_path = capture.file("stderr");
  std::vector<char*> argv;
  for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const std::string& name : unset) ::unsetenv(name.c_str());
    for (const std::string& entry : set) {
      const size_t eq = entry.find('=');
      ::setenv(entry.substr(0, eq).c_str(), entry.substr(eq + 1).c_str(), 1);
    }
    const std::string& stdout_target = setup.stdout_path.empty() ? out_path : setup.stdout_path;
    const int out_fd = ::open(stdout_target.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0) ::_exit(126);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    default_stop_signals();
    if (setup.file_size_limit >= 0) {
      // Ignored, SIGXFSZ stays ignored across exec: the write then fails with EFBIG, as on a full disk.
      ::signal(SIGXFSZ, setup.default_sigxfsz ? SIG_DFL : SIG_IGN);
      const rlimit limit{static_cast<rlim_t>(setup.file_size_limit),
                         static_cast<rlim_t>(setup.file_size_limit)};
      if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(125);
    }
    if (setup.address_space_limit >= 0) {
      const rlimit limit{static_cast<rlim_t>(setup.address_space_limit),
                         static_cast<rlim_t>(setup.address_space_limit)};
      if (::setrlimit(RLIMIT_AS, &limit) != 0) ::_exit(123);
    }
    if (setup.run_as_uid >= 0 && (::setgid(static_cast<gid_t>(setup.run_as_uid)) != 0 ||
                                  ::setuid(static_cast<uid_t>(setup.run_as_uid)) != 0))
      ::_exit(124);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  ProcessResult result;
  if (pid < 0) return result;
  if (setup.on_started) setup.on_started(pid);
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  rusage usage{};
  while (::wait4(pid, &status, WNOHANG, &usage) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      result.out = read_file(out_path);
      result.err = read_file(err_path) + "[test: timed out]";
      return result;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.max_rss_kib = usage.ru_maxrss;
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  return result;
}

}  // namespace coalesce::testing
