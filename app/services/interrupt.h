// Ctrl-C, SIGTERM and SIGHUP for --steps and the viewer (docs/reliability.md): the first stop signal asks the
// run to stop after the step in progress, so it can save --save-state, finish a clip or a screenshot, say
// so and exit 128+signal; a new request after it (quits_at_once) ends the run at once, removes every
// temporary and says what happened to each output (sim/exit_ledger.h holds what the handler needs).
#pragma once

#include "sim/output_file.h"

namespace coalesce {

// "SIGINT", "SIGTERM", "SIGHUP".
const char* stop_signal_name(int signal);

// The same stop signal this soon after the first one was handled is that signal delivered twice: timeout
// forwards its signal to the child and again to its process group, and a closed terminal's SIGHUP comes from
// bash and again from the kernel when bash exits. How far apart they came on 2 loaded cores is in
// docs/reliability.md ("Signals"); a person reads the first line before pressing Ctrl-C again.
inline constexpr long long kRepeatWindowNs = 500'000'000;

// The rule for a stop signal after the `first` one, `since_first_ns` after that one was handled: SIGHUP never
// quits at once (a terminal going away is no one's request to lose the run), nor does the first signal again
// within kRepeatWindowNs; any other SIGINT or SIGTERM is a new request and does.
bool quits_at_once(int first, int signal, long long since_first_ns);

// Names `file` ("--save-state out.npy", escaped) in the line of a run that a new request ends at once.
void plan_output(const OutputFile& file);

// Installs the handler for the rest of the process: a signal that comes while the run winds down (files
// closing, the last line printed) must still be handled, never kill the process half-way. A stop signal
// ignored when the program started stays ignored (`nohup coalesce ...` runs on when its terminal closes).
// main blocks the stop signals first thing for --steps and the viewer (block_stop_signals), so one that comes
// during start-up waits for the handler instead of taking the default action; the handler unblocks them.
class StopSignals {
 public:
  StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  bool requested() const;  // a first stop signal has arrived
  int signal() const;      // which one, 0 when none
  int exit_code() const;   // 128 + signal() (130 for Ctrl-C), or 0 when none came
};

// Holds SIGINT, SIGTERM and SIGHUP pending in this thread (and the threads it starts) until a StopSignals is
// installed: for start-up (MPI, the device), before a run's handler exists. Tests read the handler in
// /proc/PID/status as "the run has started", so the handler itself is installed only then.
void block_stop_signals();

}  // namespace coalesce
