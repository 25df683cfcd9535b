// The SIGINT handler behind InterruptGuard.
#include "app/interrupt.h"

#include <unistd.h>

#include <csignal>

namespace coalesce {
namespace {

// A handler can only talk to the program through a flag of this type; it is the one piece of mutable
// process-wide state, and only InterruptGuard touches it.
volatile std::sig_atomic_t g_interrupts = 0;

void write_stderr(const char* text, std::size_t length) {
  const ssize_t ignored = ::write(STDERR_FILENO, text, length);
  (void)ignored;
}

void on_interrupt(int) {
  if (g_interrupts != 0) {
    constexpr char kNow[] = "coalesce: interrupted again: exiting now, nothing saved\n";
    write_stderr(kNow, sizeof kNow - 1);
    ::_exit(kInterruptedExitCode);
  }
  g_interrupts = 1;
  constexpr char kSoon[] = "coalesce: interrupted: stopping after this step (Ctrl-C again quits at once)\n";
  write_stderr(kSoon, sizeof kSoon - 1);
}

}  // namespace

InterruptGuard::InterruptGuard() {
  g_interrupts = 0;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  ::sigaction(SIGINT, &action, &m_previous);
}

InterruptGuard::~InterruptGuard() {
  ::sigaction(SIGINT, &m_previous, nullptr);
}

bool InterruptGuard::requested() const {
  return g_interrupts != 0;
}

}  // namespace coalesce
