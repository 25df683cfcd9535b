// StartFrameCheck (see viewer_start_check.h).
#include "app/viewer/viewer_start_check.h"

#include <algorithm>

namespace coalesce {
namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

std::optional<int> StartFrameCheck::add_frame(int particles, double frame_ms,
                                              const std::vector<KernelTiming>& timings,
                                              const std::string& rest_name) {
  if (!m_active) return std::nullopt;
  if (!measuring()) {
    ++m_frames_since_build;
    return std::nullopt;
  }
  // The step of this frame from the kernels' own times: forces + integrate per step read.
  double step_ms = 0.0;
  int steps = 0;
  for (const KernelTiming& t : timings) {
    if (t.kernel == KernelKind::Forces) ++steps;
    if (t.kernel == KernelKind::Forces || t.kernel == KernelKind::Integrate) step_ms += t.milliseconds;
  }
  if (steps == 0) return std::nullopt;  // no step's timing read in this frame (paused, or still in flight)
  m_frame_ms.push_back(frame_ms);
  m_step_ms.push_back(step_ms / steps);
  if (static_cast<int>(m_frame_ms.size()) < kMeasuredFrames) return std::nullopt;
  m_trials.push_back({particles, median(m_frame_ms), std::min(median(m_step_ms), median(m_frame_ms))});
  m_frame_ms.clear();
  m_step_ms.clear();
  const FrameCheck check = check_start_frames(m_trials, m_rule, rest_name);
  // Every trial's line, in order: a lowered N says what limited it, the last what the frame is at the end.
  m_trail += (m_trail.empty() ? "" : "; then ") + check.reason;
  if (check.settled) {
    m_active = false;
    m_reason = m_trail;
  }
  if (check.particles <= 0 || check.particles == particles) return std::nullopt;
  m_frames_since_build = 0;
  return check.particles;
}

}  // namespace coalesce
