// Many runs of the real coalesce at once, each stopped from outside the way a user's world stops it: a
// pseudo-terminal whose master is closed while the run is a job of a shell on it (`sh -c` as the session
// leader, or an interactive bash reading the command from the terminal, which re-sends SIGHUP to its jobs),
// or a `timeout` wrapper signalled by hand. One thread polls every job, so forking (forkpty) stays safe.
#pragma once

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/process.h"

namespace coalesce::testing {

enum class Stopper {
  ShellOnTerminal,   // sh -c '…; true' is the session leader; it dies of SIGHUP, the kernel then sends one
  InteractiveBash,   // bash -i runs the command as a job: bash re-sends SIGHUP, the kernel sends another
  SignalledTimeout,  // timeout -s TERM 600 coalesce …, then SIGTERM to timeout, which forwards it twice
};

struct StopJob {
  std::vector<std::string> args;  // coalesce's arguments
  std::string out_path;           // its stdout: this file, or "" for the terminal (hung up when it writes)
  std::string err_path;           // its stderr
  int delay_ms = 0;               // from its stop-signal handler being in place to the stop
  int exit_code = -1;             // coalesce's; -1: killed by a signal or never ended
  std::string problem;            // what kept the harness from stopping it as planned; "" when nothing
};

namespace stop_jobs_detail {

using Clock = std::chrono::steady_clock;

inline std::string quoted(const std::string& word) {
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// The command a shell runs: a recording `sh` whose trap outlives the hang-up (a caught signal is reset for
// the program it starts) writes coalesce's exit status to `code_path` once coalesce has ended.
inline std::string recorded_command(const StopJob& job, const std::string& code_path) {
  std::string line = "sh -c " +
                     quoted(std::string("trap : HUP; \"$0\" \"$@\"") +
                            (job.out_path.empty() ? "" : " >" + quoted(job.out_path)) + " 2>" +
                            quoted(job.err_path) + "; echo $? >" + quoted(code_path)) +
                     " " + quoted(coalesce_executable());
  for (const std::string& a : job.args) line += " " + quoted(a);
  return line;
}

// The first process below `root` (itself included) that runs coalesce's executable, else 0.
inline pid_t find_coalesce(pid_t root, const std::filesystem::path& exe) {
  std::vector<pid_t> todo{root};
  for (std::size_t i = 0; i < todo.size(); ++i) {
    const std::string proc = "/proc/" + std::to_string(todo[i]);
    std::error_code ignored;
    if (std::filesystem::read_symlink(proc + "/exe", ignored) == exe) return todo[i];
    std::ifstream children(proc + "/task/" + std::to_string(todo[i]) + "/children");
    for (pid_t child; children >> child;) todo.push_back(child);
  }
  return 0;
}

// What `pid` and each of its threads were doing, for a run that never ended: state, kernel wait channel,
// pending and blocked signals; "" once it is gone.
inline std::string process_snapshot(pid_t pid) {
  const std::string proc = "/proc/" + std::to_string(pid);
  std::ifstream status(proc + "/status");
  std::string out, line;
  for (; std::getline(status, line);)
    for (const char* key : {"State:", "SigPnd:", "ShdPnd:", "SigBlk:", "SigIgn:", "SigCgt:"})
      if (line.rfind(key, 0) == 0) out += line + "; ";
  std::error_code ignored;
  for (const auto& task : std::filesystem::directory_iterator(proc + "/task", ignored)) {
    std::ifstream comm(task.path() / "comm"), wchan(task.path() / "wchan"), stat(task.path() / "stat");
    std::string name, channel, fields;
    std::getline(comm, name);
    std::getline(wchan, channel);
    std::getline(stat, fields);
    const std::size_t after_name = fields.rfind(')');
    const std::string state = after_name == std::string::npos ? "?" : fields.substr(after_name + 2, 1);
    out += "thread " + task.path().filename().string() + " " + name + " " + state + " in " + channel + "; ";
  }
  return out;
}

struct Running {
  StopJob* job = nullptr;
  pid_t child = -1;    // what this harness started: the shell on the terminal, or timeout
  int master = -1;     // the terminal's master side, open until the stop
  pid_t coalesce = 0;  // found once it has its handler
  std::string code_path;
  Clock::time_point stop_at{}, deadline{};
  bool stopped = false;
};

inline void start(Stopper stopper, Running& r, const std::string& code_path) {
  r.code_path = code_path;
  if (stopper == Stopper::SignalledTimeout) {
    std::vector<std::string> argv{"timeout", "-s", "TERM", "600", coalesce_executable()};
    argv.insert(argv.end(), r.job->args.begin(), r.job->args.end());
    std::vector<char*> raw;
    for (std::string& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    r.child = ::fork();
    if (r.child == 0) {
      const int out = ::open(r.job->out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      const int err = ::open(r.job->err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (out < 0 || err < 0) ::_exit(126);
      ::dup2(out, STDOUT_FILENO);
      ::dup2(err, STDERR_FILENO);
      default_stop_signals();
      ::execvp(raw[0], raw.data());
      ::_exit(127);
    }
    return;
  }
  const std::string command = recorded_command(*r.job, code_path);
  r.child = ::forkpty(&r.master, nullptr, nullptr, nullptr);
  if (r.child == 0) {
    default_stop_signals();
    ::setenv("TERM", "dumb", 1);
    ::setenv("HISTFILE", "/dev/null", 1);
    if (stopper == Stopper::ShellOnTerminal) {
      ::execl("/bin/sh", "sh", "-c", (command + "; true").c_str(), static_cast<char*>(nullptr));
    } else {
      ::execlp("bash", "bash", "--norc", "--noprofile", "-i", static_cast<char*>(nullptr));
    }
    ::_exit(127);
  }
  if (r.child < 0) return;
  ::fcntl(r.master, F_SETFL, ::fcntl(r.master, F_GETFL) | O_NONBLOCK);
  if (stopper == Stopper::InteractiveBash) {
    const std::string typed = command + "\n";
    if (::write(r.master, typed.data(), typed.size()) != static_cast<ssize_t>(typed.size()))
      r.job->problem = "could not type the command into bash";
  }
}

// The recorded exit status, once the recording shell wrote it.
inline bool read_code(const std::string& path, int& code) {
  std::ifstream in(path);
  std::string text;
  if (!std::getline(in, text) || in.eof()) return false;  // the line is whole only with its newline
  code = std::stoi(text);
  return true;
}

}  // namespace stop_jobs_detail

// Runs every job, `concurrent` at a time, each stopped by `stopper` `delay_ms` after coalesce's handler for
// the stop signal is in place; fills in exit_code and problem. A job that has not ended `seconds_each` after
// it started is killed (problem says so). The terminal jobs' shells and recorders are reaped here.
inline void run_stop_jobs(Stopper stopper, std::vector<StopJob>& jobs, int concurrent, int seconds_each,
                          const std::string& scratch_dir) {
  using namespace stop_jobs_detail;
  const bool terminal = stopper != Stopper::SignalledTimeout;
  const int signal = terminal ? SIGHUP : SIGTERM;
  const std::filesystem::path exe = std::filesystem::canonical(coalesce_executable());
  // The recording shells outlive the terminal's shell: this process adopts and reaps them, not init.
  if (terminal) ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  std::vector<Running> running;
  std::size_t next = 0;
  while (next < jobs.size() || !running.empty()) {
    while (next < jobs.size() && static_cast<int>(running.size()) < concurrent) {
      Running r;
      r.job = &jobs[next];
      r.deadline = Clock::now() + std::chrono::seconds(seconds_each);
      start(stopper, r, scratch_dir + "/code" + std::to_string(next));
      ++next;
      if (r.child < 0) {
        r.job->problem = "could not start";
        continue;
      }
      running.push_back(r);
    }
    for (auto it = running.begin(); it != running.end();) {
      Running& r = *it;
      char drained[4096];
      while (r.master >= 0 && ::read(r.master, drained, sizeof drained) > 0) {
      }
      if (r.coalesce == 0) {
        const pid_t pid = find_coalesce(r.child, exe);
        if (pid != 0 && has_signal_handler(pid, signal)) {
          r.coalesce = pid;
          r.stop_at = Clock::now() + std::chrono::milliseconds(r.job->delay_ms);
        }
      } else if (!r.stopped && Clock::now() >= r.stop_at) {
        r.stopped = true;
        if (terminal) {
          ::close(r.master);  // the terminal goes away: the kernel hangs up its session
          r.master = -1;
        } else {
          ::kill(r.child, SIGTERM);  // by hand, to timeout
        }
      }
      bool ended = false;
      int status = 0;
      if (terminal) {
        ended = read_code(r.code_path, r.job->exit_code);
      } else if (::waitpid(r.child, &status, WNOHANG) == r.child) {
        ended = true;
        r.job->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      if (!ended && Clock::now() > r.deadline) {
        r.job->problem = r.coalesce == 0 ? "coalesce never had its handler in place"
                                         : "it never ended: " + std::string(r.stopped ? "stopped" : "not yet stopped") +
                                               "; coalesce: " + process_snapshot(r.coalesce) +
                                               " its parent: " + process_snapshot(r.child);
        if (r.coalesce != 0) ::kill(r.coalesce, SIGKILL);
        ::kill(r.child, SIGKILL);
        ended = true;
      }
      if (ended) {
        if (r.master >= 0) ::close(r.master);
        it = running.erase(it);
      } else {
        ++it;
      }
    }
    // On a terminal the recording shells, adopted by this subreaper, are reaped here (their codes come from
    // files). Never under timeout: reaping another job's timeout here hid its exit from that job's own
    // waitpid, which then waited out the deadline ("it never ended" with both processes long gone).
    while (terminal && ::waitpid(-1, nullptr, WNOHANG) > 0) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (terminal) ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

}  // namespace coalesce::testing
