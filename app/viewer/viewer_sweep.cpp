// Sweep state machine: AoS, SoA, float4 in turn (in one precision, or in each), each for a fixed time,
// then back to where the user was.
#include "app/viewer/viewer_sweep.h"

#include <algorithm>
#include <cstdio>

namespace coalesce {

void LayoutSweep::start(Layout layout, Precision precision, double now, bool every_precision) {
  m_active = true;
  m_steps.clear();
  for (Layout l : kAllLayouts) m_steps.push_back({l, precision});
  if (every_precision)
    for (Precision p : kAllPrecisions)
      if (p != precision)
        for (Layout l : kAllLayouts) m_steps.push_back({l, p});
  m_return_to = {layout, precision};
  m_next = 0;
  m_started = now - m_seconds;  // the first update switches at once
}

std::optional<SweepStep> LayoutSweep::update(double now) {
  if (!m_active || now - m_started < m_seconds) return std::nullopt;
  m_started = now;
  if (m_next < m_steps.size()) return m_steps[m_next++];
  m_active = false;
  return m_return_to;
}

void LayoutSweep::skip(Precision precision) {
  if (!m_active) return;
  // The step just returned goes too, and the next one comes at the next update: none runs in its place.
  if (m_next > 0 && m_steps[m_next - 1].precision == precision) {
    --m_next;
    m_started -= m_seconds;
  }
  const auto later = m_steps.begin() + static_cast<long>(m_next);
  m_steps.erase(
      std::remove_if(later, m_steps.end(), [&](const SweepStep& s) { return s.precision == precision; }),
      m_steps.end());
}

std::string LayoutSweep::status() const {
  if (!m_active || m_next == 0) return "";
  const SweepStep& now = m_steps[m_next - 1];
  char text[80];
  std::snprintf(text, sizeof text, "sweeping: %s %s (%zu of %zu)", std::string(to_string(now.layout)).c_str(),
                std::string(to_string(now.precision)).c_str(), m_next, m_steps.size());
  return text;
}

}  // namespace coalesce
