// The "sweep" buttons and --sweep: run each layout (and, when asked, each layout in each precision) for a
// while so the Compare rows fill, then return to the layout and precision the user had. The clock is the
// caller's: seconds for the buttons, frames for scripted runs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sim/layout.h"
#include "sim/precision.h"

namespace coalesce {

struct SweepStep {
  Layout layout;
  Precision precision;
};

class LayoutSweep {
 public:
  explicit LayoutSweep(double per_step = 2.0) : m_seconds(per_step) {}

  // Every layout in `precision`; with `every_precision`, every layout in `precision` and then every layout
  // in each other precision (fewer conversions than interleaving them: one there and one back).
  void start(Layout layout, Precision precision, double now, bool every_precision);
  // The layout and precision to switch to now, if any; the last one returned restores the user's.
  std::optional<SweepStep> update(double now);
  // `precision` could not be switched to (the device cannot hold it): its steps still to come are dropped.
  void skip(Precision precision);
  bool active() const { return m_active; }
  std::string status() const;

 private:
  double m_seconds;  // per step, in the caller's clock units
  bool m_active = false;
  std::vector<SweepStep> m_steps;  // the sweep's steps; the user's layout and precision come after them
  SweepStep m_return_to{Layout::Float4, Precision::Fp32};
  std::size_t m_next = 0;  // the step update() returns next
  double m_started = 0;
};

}  // namespace coalesce
