// Ctrl-C, SIGTERM and SIGHUP for --steps and the viewer (docs/reliability.md): the first stop signal asks the
// run to stop after the step in progress, so it can save --save-state, finish a clip or a screenshot, say
// so and exit 128+signal; a second one ends the run at once, removes every temporary and says what happened
// to each output (sim/exit_ledger.h holds what the handler needs).
#pragma once

#include "sim/output_file.h"

namespace coalesce {

// "SIGINT", "SIGTERM", "SIGHUP".
const char* stop_signal_name(int signal);

// Names `file` ("--save-state out.npy", escaped) in the line of a run that a second signal ends at once.
void plan_output(const OutputFile& file);

// Installs the handler for the rest of the process: a signal that comes while the run winds down (files
// closing, the last line printed) must still be handled, never kill the process half-way.
class StopSignals {
 public:
  StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  bool requested() const;  // a first stop signal has arrived
  int signal() const;      // which one, 0 when none
  int exit_code() const;   // 128 + signal() (130 for Ctrl-C), or 0 when none came
};

}  // namespace coalesce
