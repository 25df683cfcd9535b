// The "sweep" button: runs each layout for a few seconds so the Compare bars fill, then returns to the
// layout the user had. The clock is the caller's: seconds for the button, frames for scripted runs.
#pragma once

#include <optional>
#include <string>

#include "sim/layout.h"

namespace coalesce {

class LayoutSweep {
 public:
  explicit LayoutSweep(double per_layout = 2.0) : m_seconds(per_layout) {}

  void start(Layout current, double now);
  // The layout to switch to now, if any; the last one returned restores the user's layout.
  std::optional<Layout> update(double now);
  bool active() const { return m_active; }
  std::string status() const;

 private:
  double m_seconds;  // per layout, in the caller's clock units
  bool m_active = false;
  int m_index = 0;
  double m_started = 0;
  Layout m_return_to = Layout::Float4;
};

}  // namespace coalesce
