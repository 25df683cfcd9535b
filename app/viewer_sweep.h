// The "sweep" button: runs each layout for a few seconds so the Compare bars fill, then returns to the
// layout the user had.
#pragma once

#include <optional>
#include <string>

#include "sim/layout.h"

namespace coalesce {

class LayoutSweep {
 public:
  explicit LayoutSweep(double seconds_per_layout = 2.0) : m_seconds(seconds_per_layout) {}

  void start(Layout current, double now);
  // The layout to switch to now, if any; the last one returned restores the user's layout.
  std::optional<Layout> update(double now);
  bool active() const { return m_active; }
  std::string status() const;

 private:
  double m_seconds;
  bool m_active = false;
  int m_index = 0;
  double m_started = 0;
  Layout m_return_to = Layout::Float4;
};

}  // namespace coalesce
