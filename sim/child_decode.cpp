// run_in_child: the pipe, the fork, the child's signal settings and _exit, the parent's bounded reads and
// the reaping, with every descriptor and the child itself owned by an object until released.
#include "sim/child_decode.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace coalesce {

namespace {

constexpr std::size_t kPipeBytes = std::size_t{1} << 20;  // Linux's default limit for an unprivileged user
constexpr int kChildThrew = 125;        // the child's work threw: it was to report every failure itself
constexpr int kChildWriteFailed = 126;  // the pipe failed in the child (the parent went away)
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

class UniqueFd {
 public:
  explicit UniqueFd(int fd = -1) : m_fd(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return m_fd; }
  void reset() {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
  }

 private:
  int m_fd;
};

// The child until it is reaped: leaving the scope before wait() (an exception) kills and reaps it.
class ChildProcess {
 public:
  explicit ChildProcess(pid_t pid) : m_pid(pid) {}
  ~ChildProcess() {
    if (m_pid <= 0) return;
    kill();
    wait();
  }
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  void kill() {
    ::kill(m_pid, SIGKILL);
    m_killed = true;
  }
  bool killed_here() const { return m_killed; }
  // The child's wait status, once it has ended.
  int wait() {
    int status = 0;
    while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_pid = -1;
    return status;
  }

 private:
  pid_t m_pid;
  bool m_killed = false;
};

// The stop signals blocked in this thread from before the fork until the child has ignored them, so none
// reaches the handler it inherits; the parent's mask is restored at the end of the scope.
class StopSignalsBlocked {
 public:
  StopSignalsBlocked() {
    sigset_t stops;
    sigemptyset(&stops);
    for (int s : kStopSignals) sigaddset(&stops, s);
    ::pthread_sigmask(SIG_BLOCK, &stops, &m_before);
  }
  ~StopSignalsBlocked() { restore(); }
  StopSignalsBlocked(const StopSignalsBlocked&) = delete;
  StopSignalsBlocked& operator=(const StopSignalsBlocked&) = delete;
  void restore() const { ::pthread_sigmask(SIG_SETMASK, &m_before, nullptr); }

 private:
  sigset_t m_before;
};

[[noreturn]] void run_child(int read_fd, int write_fd, const StopSignalsBlocked& blocked,
                            const std::function<void(ChildWriter&)>& child) {
  ::close(read_fd);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  for (int s : kStopSignals) ::sigaction(s, &ignore, nullptr);
  ::sigaction(SIGPIPE, &ignore, nullptr);  // a parent gone is EPIPE on the next write, then _exit
  blocked.restore();                       // a stop signal that came meanwhile is dropped: it is ignored
  try {
    ChildWriter writer(write_fd);
    child(writer);
  } catch (...) {
    ::_exit(kChildThrew);
  }
  ::_exit(0);
}

std::string status_text(int status, bool result_whole) {
  if (WIFSIGNALED(status)) return "was killed by " + signal_name(WTERMSIG(status));
  return "exited with status " + std::to_string(WEXITSTATUS(status)) +
         (result_whole ? "" : " without a result");
}

}  // namespace

void ChildWriter::bytes(const void* data, std::size_t size) const {
  const char* at = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t put = ::write(m_fd, at, std::min(size, kPipeBytes));
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) ::_exit(kChildWriteFailed);
    at += put;
    size -= static_cast<std::size_t>(put);
  }
}

void ChildReader::bytes(void* data, std::size_t size) {
  char* at = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t got = ::read(m_fd, at, std::min(size, kPipeBytes));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw ChildStreamError(std::string("reading it failed: ") + std::strerror(errno));
    if (got == 0) {
      m_ended = true;
      throw ChildStreamError("cut short");
    }
    at += got;
    size -= static_cast<std::size_t>(got);
  }
}

std::uint64_t ChildReader::u64() {
  std::uint64_t v = 0;
  bytes(&v, sizeof v);
  return v;
}

double ChildReader::f64() {
  double v = 0;
  bytes(&v, sizeof v);
  return v;
}

std::uint64_t ChildReader::count(std::uint64_t max, const char* what) {
  const std::uint64_t n = u64();
  if (n > max)
    throw ChildStreamError(std::string(what) + " " + std::to_string(n) + ", more than " +
                           std::to_string(max));
  return n;
}

std::string ChildReader::text(std::size_t max_bytes, const char* what) {
  std::string s(count(max_bytes, what), '\0');
  bytes(s.data(), s.size());
  return s;
}

void ChildReader::expect_end() {
  char extra = 0;
  ssize_t got = 0;
  while ((got = ::read(m_fd, &extra, 1)) < 0 && errno == EINTR) {
  }
  if (got > 0) throw ChildStreamError("bytes after its end");
  m_ended = true;
}

std::string signal_name(int signal) {
  // A table rather than sigabbrev_np, which needs glibc 2.32 where the binaries run.
  static constexpr std::pair<int, const char*> kNames[] = {
      {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGABRT, "SIGABRT"}, {SIGFPE, "SIGFPE"},
      {SIGILL, "SIGILL"},   {SIGKILL, "SIGKILL"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
      {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGPIPE, "SIGPIPE"}, {SIGTRAP, "SIGTRAP"},
      {SIGSYS, "SIGSYS"},   {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGALRM, "SIGALRM"},
      {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}};
  for (const auto& [number, name] : kNames)
    if (number == signal) return name;
  return "signal " + std::to_string(signal);
}

void run_in_child(const std::function<void(ChildWriter&)>& child,
                  const std::function<void(ChildReader&)>& parent) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) throw ChildNotStarted(std::string("pipe: ") + std::strerror(errno));
  UniqueFd read_end(ends[0]), write_end(ends[1]);
  // Fewer switches between the two for large outcomes; where refused, the default 64 KiB works as well.
  ::fcntl(write_end.get(), F_SETPIPE_SZ, static_cast<int>(kPipeBytes));
  StopSignalsBlocked blocked;
  const pid_t pid = ::fork();
  if (pid < 0) throw ChildNotStarted(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) run_child(read_end.get(), write_end.get(), blocked, child);
  ChildProcess process(pid);
  blocked.restore();
  write_end.reset();  // the child's copy is the only one left: its exit is the end of the stream

  ChildReader reader(read_end.get());
  std::string problem;
  try {
    parent(reader);
    reader.expect_end();
  } catch (const ChildStreamError& e) {
    problem = e.what();
    if (!reader.ended()) process.kill();  // it sent something wrong: nothing more from it is of use
  }
  read_end.reset();
  const bool killed_here = process.killed_here();
  const int status = process.wait();
  const bool exited_cleanly = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (killed_here) throw ChildFailed("sent a malformed result: " + problem, 0);
  if (!exited_cleanly)
    throw ChildFailed(status_text(status, problem.empty()), WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  if (!problem.empty()) throw ChildFailed("sent a malformed result: " + problem, 0);
}

}  // namespace coalesce
