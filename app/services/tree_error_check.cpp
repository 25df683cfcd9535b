// The live error check (see tree_error_check.h).
#include "app/services/tree_error_check.h"

#include <algorithm>
#include <chrono>

#include "sim/force_method.h"

namespace coalesce {

bool TreeErrorCheck::update(Backend& backend, const SimParams& params, std::uint64_t step, double now_s) {
  if (method_info(backend.force_method()).exact) return false;
  if (m_due_s && now_s < *m_due_s) return false;
  const std::uint64_t seed = m_seeds();
  const std::vector<int> targets = error_targets(backend.particle_count(), kErrorTargets, seed);
  using Clock = std::chrono::steady_clock;
  backend.synchronize();  // the step's own work is not the check's cost
  const Clock::time_point begin = Clock::now();
  const std::optional<AccelerationSample> sample = backend.sample_accelerations(params, targets);
  const double check_ms = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
  if (!sample) return false;
  // The interval that keeps the check within its share of the run's time, never below the second.
  m_interval_s = std::max(kCheckInterval, check_ms / (1000.0 * kMaxCheckShare));
  m_last = ErrorCheckResult{force_errors(*sample), seed, step, check_ms, m_interval_s};
  m_due_s = now_s + m_interval_s;
  return true;
}

void TreeErrorCheck::forget() {
  m_last.reset();
  m_due_s.reset();
}

}  // namespace coalesce
