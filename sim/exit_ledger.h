// What a signal handler needs to end a run at once and still tell the truth (docs/reliability.md): the first
// stop signal that arrived, and every output of the run with its temporary file while one exists. This is
// the program's one process-wide mutable state: a handler can reach nothing else. Each output's message is
// formatted when it is planned, so the handler only copies bytes, unlinks temporaries and writes (all
// async-signal-safe); renames happen inside a CriticalSection, so the handler never sees half of one.
#pragma once

#include <signal.h>

#include <string>
#include <string_view>

namespace coalesce {

namespace exit_ledger {

// The signals that stop a run the way Ctrl-C does: the program finishes the step, saves and exits 128+signal.
inline constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

// The first stop signal (SIGINT, SIGTERM, SIGHUP), 0 until one arrives.
int stop_signal();
// Async-signal-safe: records `signal` if it is the first since reset_stop_signal(); false if one came before.
bool note_stop_signal(int signal);
// Async-signal-safe: the first stop signal's handler is done, at `now_ns` (CLOCK_MONOTONIC).
void note_first_stop_handled(long long now_ns);
// Async-signal-safe: nanoseconds from the end of the first stop signal's handler to `now_ns`; 0 while that
// handler, in another thread, is still running (the two signals then came together).
long long since_first_stop_handled(long long now_ns);
void reset_stop_signal();

// Under mpirun, ranks other than 0 write no line of their own when a signal stops them: rank 0's line speaks
// for every rank. Async-signal-safe to read.
void set_quiet();
bool quiet();

// An output this run means to write (the regular file `target`), named by `label` (already escaped for a
// terminal, e.g. "--save-state out.npy") in the message of a run that ends at once. Planning the same target
// again keeps the first label. Outputs not planned (a clip's frames) are written and cleaned up the same way, unnamed.
void plan_output(const std::string& target, std::string_view label);
// A sentence said as it is in that message ("--record out/: the frames written so far stay").
void plan_note(std::string_view text);

// The stop signals blocked in this thread, and a handler running in another thread waits (a few seconds at
// most) until the section ends: a rename and the ledger's record of it are seen together or not at all.
class CriticalSection {
 public:
  CriticalSection();
  ~CriticalSection();
  CriticalSection(const CriticalSection&) = delete;
  CriticalSection& operator=(const CriticalSection&) = delete;

 private:
  sigset_t m_previous{};
};

// One write in progress: the planned entry of its target, or an unnamed one released when it ends.
// Every call but the constructor's is made inside a CriticalSection.
class LedgerWrite {
 public:
  explicit LedgerWrite(const std::string& target);
  ~LedgerWrite();
  LedgerWrite(const LedgerWrite&) = delete;
  LedgerWrite& operator=(const LedgerWrite&) = delete;

  void set_temporary(const std::string& path);  // a file the handler removes; "" when it is gone
  void set_existed(bool existed);               // a previous file is there, untouched until the rename
  void mark_written();                          // the rename is done

 private:
  int m_slot = -1;  // -1: the table was full; the write goes on, unrecorded
  bool m_transient = false;
};

// Async-signal-safe, for the handler that ends the run at once: waits for critical sections, removes every
// registered temporary and writes `prefix` followed by what happened to each planned output, as one line
// on `fd` (nothing when quiet()). Critical sections entered after this wait until the process exits.
void abandon_outputs(int fd, const char* prefix);

}  // namespace exit_ledger
}  // namespace coalesce
