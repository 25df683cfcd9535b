// Sweep state machine: AoS, SoA, float4 in turn, each for a fixed wall-clock time.
#include "app/viewer/viewer_sweep.h"

#include <cstdio>

namespace coalesce {

void LayoutSweep::start(Layout current, double now) {
  m_active = true;
  m_index = -1;
  m_started = now - m_seconds;  // the first update switches at once
  m_return_to = current;
}

std::optional<Layout> LayoutSweep::update(double now) {
  if (!m_active || now - m_started < m_seconds) return std::nullopt;
  m_started = now;
  ++m_index;
  if (m_index < static_cast<int>(kAllLayouts.size())) return kAllLayouts[static_cast<size_t>(m_index)];
  m_active = false;
  return m_return_to;
}

std::string LayoutSweep::status() const {
  if (!m_active || m_index < 0) return "";
  char text[64];
  std::snprintf(text, sizeof text, "sweeping: %s (%d of %d)",
                std::string(to_string(kAllLayouts[static_cast<size_t>(m_index)])).c_str(), m_index + 1,
                static_cast<int>(kLayoutCount));
  return text;
}

}  // namespace coalesce
