// How the ranks of a run stop together (docs/mpi.md): a phase that can fail on one rank runs through
// agreed(), whose outcome every rank learns from one collective, so no rank is left waiting in the next.
#pragma once

#include <string>
#include <utility>

#include "app/ranks/ranks.h"

namespace coalesce {

// What a rank's phase ended with: exit_code 0 when it succeeded, else main's code for the exception (2 for
// a usage error, 1 for a runtime failure) and its message.
struct LocalOutcome {
  int exit_code = 0;
  std::string message;
  bool failed() const { return exit_code != 0; }
};

// Runs fn, catching what main would report.
template <class Fn>
LocalOutcome capture_outcome(Fn&& fn);

// Every rank's part of the agreement once the first failing rank is known (first_failed < 0: none): that
// rank's code and message reach rank 0, which throws them (UsageError or RuntimeFailure, "rank r of K: "
// before the message of a rank other than 0); the other ranks throw StoppedWithOtherRanks.
void stop_together(Ranks& ranks, int first_failed, const LocalOutcome& mine);

// The value a rank gives max_over_ranks so that the largest names the first failing rank (0: none failed).
inline long long failure_vote(const Ranks& ranks, const LocalOutcome& mine) {
  return mine.failed() ? ranks.size() - ranks.rank() : 0;
}
inline int first_failed_rank(const Ranks& ranks, long long largest_vote) {
  return largest_vote > 0 ? static_cast<int>(ranks.size() - largest_vote) : -1;
}

// Runs fn on every rank; when it fails on any, every rank stops (stop_together). One rank: fn runs bare.
template <class Fn>
void agreed(Ranks& ranks, Fn&& fn) {
  if (!ranks.distributed()) {
    std::forward<Fn>(fn)();
    return;
  }
  const LocalOutcome mine = capture_outcome(std::forward<Fn>(fn));
  stop_together(ranks, first_failed_rank(ranks, ranks.max_over_ranks(failure_vote(ranks, mine))), mine);
}

// The exit code and message main gives the exception being handled.
LocalOutcome outcome_of_current_exception();

template <class Fn>
LocalOutcome capture_outcome(Fn&& fn) {
  try {
    std::forward<Fn>(fn)();
    return {};
  } catch (...) {
    return outcome_of_current_exception();
  }
}

}  // namespace coalesce
