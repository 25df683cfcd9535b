// The stop-signal handler behind StopSignals. Its only state is the exit ledger's (sim/exit_ledger.h).
#include "app/services/interrupt.h"

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

// Async-signal-safe: only fixed strings, the ledger's lock-free atomics, write(2) and _exit(2).
void on_stop_signal(int signal) {
  Text text;
  if (!exit_ledger::note_stop_signal(signal)) {
    text << "coalesce: interrupted again (" << stop_signal_name(signal) << "), exiting now";
    exit_ledger::abandon_outputs(STDERR_FILENO, text.bytes);
    ::_exit(128 + signal);
  }
  text << "coalesce: interrupted (" << stop_signal_name(signal) << "): stopping after this step ("
       << (signal == SIGINT ? "Ctrl-C again" : "a second signal") << " quits at once)\n";
  const ssize_t ignored = ::write(STDERR_FILENO, text.bytes, text.size);
  (void)ignored;
}

}  // namespace

const char* stop_signal_name(int signal) {
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : signal == SIGHUP ? "SIGHUP" : "a signal";
}

void plan_output(const OutputFile& file) {
  exit_ledger::plan_output(file, printable(file.flag + " " + file.shown));
}

StopSignals::StopSignals() {
  exit_ledger::reset_stop_signal();
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  // Two different stop signals at once: the second waits for the first's handler, so the order is kept.
  for (int signal : exit_ledger::kStopSignals) sigaddset(&action.sa_mask, signal);
  action.sa_flags = SA_RESTART;
  for (int signal : exit_ledger::kStopSignals) ::sigaction(signal, &action, nullptr);
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
