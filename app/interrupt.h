// Ctrl-C for --steps and the viewer (docs/reliability.md): the first SIGINT asks the run to stop after the step in
// progress, so it can save --save-state, say what it saved and exit 130; a second SIGINT exits at once.
#pragma once

#include <signal.h>

namespace coalesce {

constexpr int kInterruptedExitCode = 130;  // 128 + SIGINT, as shells report it

// Installs the handler for its lifetime and restores the previous one after.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  bool requested() const;  // a first Ctrl-C has arrived

 private:
  struct sigaction m_previous {};
};

}  // namespace coalesce
