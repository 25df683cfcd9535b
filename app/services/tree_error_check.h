// The viewer's live check of an approximate force method's error (issue 32): about once a second, its
// accelerations of kErrorTargets fresh random bodies against a float64 direct sum over all N. The check is
// timed, and its interval grows when needed so that it costs at most kMaxCheckShare of the run's time.
#pragma once

#include <cstdint>
#include <optional>
#include <random>

#include "sim/backend.h"
#include "sim/force_error.h"

namespace coalesce {

inline constexpr double kCheckInterval = 1.0;   // seconds between checks, at the least
inline constexpr double kMaxCheckShare = 0.05;  // of the time between checks, spent checking

struct ErrorCheckResult {
  ForceErrors errors;
  std::uint64_t seed = 0;  // the targets' (sim/force_error.h, error_targets)
  std::uint64_t step = 0;  // the step whose state was checked
  double check_ms = 0.0;   // the check's wall time, waited for
  double interval_s = kCheckInterval;
  // check_ms over the time between two checks: what the check costs the frames, on average.
  double share() const { return check_ms / (1000.0 * interval_s); }
};

class TreeErrorCheck {
 public:
  explicit TreeErrorCheck(std::uint64_t seed = std::random_device{}()) : m_seeds(seed) {}

  // Checks when one is due at `now_s` (seconds on any steady clock) and the method is approximate; true
  // when it checked. Synchronizes the backend.
  bool update(Backend& backend, const SimParams& params, std::uint64_t step, double now_s);
  // The last check's numbers; none before the first, or after forget().
  const std::optional<ErrorCheckResult>& last() const { return m_last; }
  // The tree changed (theta, N, method): its old error is no longer the run's; check at the next update.
  void forget();

 private:
  std::mt19937_64 m_seeds;
  std::optional<ErrorCheckResult> m_last;
  std::optional<double> m_due_s;  // none: due now
  double m_interval_s = kCheckInterval;
};

}  // namespace coalesce
