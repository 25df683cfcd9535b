// The start size's second half (app/services/start_size.h, check_start_frames): when the viewer chose N
// itself, its first frames are measured whole once the window or context is open, each waited for, and N
// is lowered while the draw, the upload or copy path and the panel leave the frame over its budget.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/services/start_size.h"
#include "sim/kernel_stats.h"

namespace coalesce {

class StartFrameCheck {
 public:
  StartFrameCheck() = default;  // inactive: N was set by the user or a file
  explicit StartFrameCheck(const SizeRule& rule) : m_rule(rule), m_active(true) {}

  // Whether this frame is timed: the caller waits for its GL and CUDA work before taking the time.
  bool measuring() const { return m_active && m_frames_since_build >= kWarmupFrames; }
  // Every frame while active: its work (start to the end of its waited-for work, vsync's wait left out;
  // ignored unless measuring()) and the kernel timings read in it. Returns the N to rebuild at when the
  // frames so far ask for another (lower than the step rule's, never higher); `rest_name` says what the
  // rest of the frame is on this run.
  std::optional<int> add_frame(int particles, double frame_ms, const std::vector<KernelTiming>& timings,
                               const std::string& rest_name);
  // The check's line once it has settled (stdout, the panel, the screenshot JSON): each trial's, joined by
  // "; then "; "" before.
  const std::string& settled_reason() const { return m_reason; }
  bool settled() const { return !m_reason.empty(); }

 private:
  // Untimed frames after each build: --draw auto's calibration, first touches of fresh buffers, the
  // kernel timings of the previous N still in flight.
  static constexpr int kWarmupFrames = 3;
  static constexpr int kMeasuredFrames = 5;  // their medians are the trial

  SizeRule m_rule;
  bool m_active = false;
  int m_frames_since_build = 0;
  std::vector<double> m_frame_ms, m_step_ms;
  std::vector<FrameTrial> m_trials;
  std::string m_trail;   // each trial's line so far
  std::string m_reason;
};

}  // namespace coalesce
