// Decoding with a library that may crash on damaged input (libhdf5; docs/reliability.md, "Hostile GADGET
// HDF5 files"): the work runs in a forked child that writes its outcome to a pipe and _exits, and the parent
// reads that outcome with a bound on every length, so a crash, a hang cut short or garbage becomes one line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

namespace coalesce {

// The child's end of the pipe. Each write sends all its bytes; when the parent is gone (EPIPE) or the pipe
// fails the child _exits at once, as nobody is left to read the rest.
class ChildWriter {
 public:
  explicit ChildWriter(int fd) : m_fd(fd) {}
  void bytes(const void* data, std::size_t size) const;
  void u64(std::uint64_t v) const { bytes(&v, sizeof v); }
  void f64(double v) const { bytes(&v, sizeof v); }
  void text(const std::string& s) const {
    u64(s.size());
    bytes(s.data(), s.size());
  }

 private:
  int m_fd;
};

// What the child sent is not what it should have: cut short, a length beyond its bound, bytes left over.
class ChildStreamError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The parent's end: every read is exact or throws ChildStreamError, and every length is checked against a
// bound before anything is allocated for it.
class ChildReader {
 public:
  explicit ChildReader(int fd) : m_fd(fd) {}
  void bytes(void* data, std::size_t size);  // exactly `size` bytes
  std::uint64_t u64();
  double f64();
  // A count of at most `max`; `what` names it in the error ("record count").
  std::uint64_t count(std::uint64_t max, const char* what);
  std::string text(std::size_t max_bytes, const char* what);
  void expect_end();                      // the child sent nothing more
  bool ended() const { return m_ended; }  // the stream's end was reached: the child has closed its end

 private:
  int m_fd;
  bool m_ended = false;
};

// The child did not deliver a whole outcome: what() says how, in words for the line after the file's name
// ("was killed by SIGSEGV", "exited with status 3 without a result", "sent a malformed result: cut short").
class ChildFailed : public std::runtime_error {
 public:
  ChildFailed(const std::string& what, int signal) : std::runtime_error(what), m_signal(signal) {}
  int signal() const { return m_signal; }  // the signal that ended the child, 0 when none did

 private:
  int m_signal;
};

// No child could be started: what() is the failed call and its reason ("fork: Cannot allocate memory").
class ChildNotStarted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "SIGSEGV" for 11; "signal 77" for a number without a name.
std::string signal_name(int signal);

// Runs child(writer) in a forked child, which then _exits (no atexit handler, no destructor of the parent's
// objects runs there), and parent(reader) here on what the child writes; the child is always reaped and
// every descriptor closed, whatever happens. Returns when the child wrote an outcome that parent() read
// whole and exited 0; throws ChildFailed otherwise. Any other exception from parent() (out of memory)
// propagates once the child is killed and reaped; a failed pipe or fork throws ChildNotStarted.
//
// The caller may have other threads (a thread pool) and a CUDA context. The child has only the calling
// thread and must run nothing but `child`: glibc's malloc takes its locks around fork (its atfork handlers),
// so allocating in the child is safe, but a lock another thread held at the fork stays held there, so
// `child` must not need one (libhdf5's API lock: the program calls libhdf5 from one thread at a time), and
// must never touch CUDA. The child ignores SIGINT, SIGTERM and SIGHUP (blocked across the fork, so none
// reaches an inherited handler there, whose second signal would remove the parent's temporary files): a
// stop is the parent's to handle, and the child runs to its end. The parent retries reads and waitpid on
// EINTR, so a stop signal handled meanwhile changes nothing.
void run_in_child(const std::function<void(ChildWriter&)>& child,
                  const std::function<void(ChildReader&)>& parent);

}  // namespace coalesce
