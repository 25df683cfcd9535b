// The stop-signal handler behind StopSignals. Its only state is the exit ledger's (sim/exit_ledger.h).
#include "app/services/interrupt.h"

#include <time.h>
#include <unistd.h>

#include <csignal>

#include "sim/exit_ledger.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

// A fixed buffer filled by copying: snprintf is not async-signal-safe.
struct Text {
  char bytes[160];
  std::size_t size = 0;
  Text& operator<<(const char* text) {
    while (*text && size + 1 < sizeof bytes) bytes[size++] = *text++;
    bytes[size] = '\0';
    return *this;
  }
};

long long monotonic_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<long long>(now.tv_sec) * 1'000'000'000LL + now.tv_nsec;
}

// What the first line tells the user quits at once (quits_at_once).
const char* how_to_quit_now(int signal) {
  return signal == SIGINT ? "Ctrl-C again quits at once" : "Ctrl-C or SIGTERM quits at once";
}

// Async-signal-safe: only fixed strings, the ledger's lock-free atomics, clock_gettime(2), sigaction(2),
// write(2) and _exit(2).
void on_stop_signal(int signal) {
  // From here the run only saves and says so: a reader that went away with the terminal (`2>&1 | tee log`)
  // must not kill it half-way with SIGPIPE; its writes fail instead.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, nullptr);
  Text text;
  if (!exit_ledger::note_stop_signal(signal)) {
    const long long since = exit_ledger::since_first_stop_handled(monotonic_ns());
    if (!quits_at_once(exit_ledger::stop_signal(), signal, since)) return;
    text << "coalesce: interrupted again (" << stop_signal_name(signal) << "), exiting now";
    exit_ledger::abandon_outputs(STDERR_FILENO, text.bytes);
    ::_exit(128 + signal);
  }
  if (!exit_ledger::quiet()) {
    text << "coalesce: interrupted (" << stop_signal_name(signal) << "): stopping after this step ("
         << how_to_quit_now(signal) << ")\n";
    const ssize_t ignored = ::write(STDERR_FILENO, text.bytes, text.size);
    (void)ignored;
  }
  // The window starts here: a repeat sent at once waits for this handler, which a loaded machine may pause.
  exit_ledger::note_first_stop_handled(monotonic_ns());
}

}  // namespace

const char* stop_signal_name(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : signal == SIGHUP ? "SIGHUP" : "a signal";
}

bool quits_at_once(int first, int signal, long long since_first_ns) {
  return signal != SIGHUP && (signal != first || since_first_ns >= kRepeatWindowNs);
}

void plan_output(const OutputFile& file) {
  if (file.empty() || file.to_stdout) return;  // nothing a signal could leave half-written
  exit_ledger::plan_output(file.target, printable(file.flag + " " + file.shown));
}

StopSignals::StopSignals() {
  exit_ledger::reset_stop_signal();
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // Two different stop signals at once: the second waits for the first's handler, so the order is kept.
  for (int signal : exit_ledger::kStopSignals) sigaddset(&action.sa_mask, signal);
  action.sa_flags = SA_RESTART;
  for (int signal : exit_ledger::kStopSignals) {
    // Ignored when the program started (nohup, a background job of a script): the user chose to run on.
    struct sigaction before {};
    if (::sigaction(signal, nullptr, &before) == 0 && before.sa_handler == SIG_IGN) continue;
    ::sigaction(signal, &action, nullptr);
  }
  // main blocked them while the process started (block_stop_signals): one that came meanwhile is handled now.
  ::pthread_sigmask(SIG_UNBLOCK, &action.sa_mask, nullptr);
}

void block_stop_signals() {
  sigset_t stop;
  sigemptyset(&stop);
  for (int signal : exit_ledger::kStopSignals) sigaddset(&stop, signal);
  ::pthread_sigmask(SIG_BLOCK, &stop, nullptr);
}

bool StopSignals::requested() const {
  return exit_ledger::stop_signal() != 0;
}

int StopSignals::signal() const {
  return exit_ledger::stop_signal();
}

int StopSignals::exit_code() const {
  return requested() ? 128 + signal() : 0;
}

}  // namespace coalesce
