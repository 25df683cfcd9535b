// One clip being recorded: its frames go to a ClipWriter, its per-frame kernel numbers to the JSON written
// beside it when it ends (schema coalesce-clip/1, docs/capture.md).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/services/clip_output.h"
#include "render/render_target.h"
#include "render/screenshot.h"
#include "sim/kernel_stats.h"

namespace coalesce {

class ClipWriter;

// A clip asked for at start-up begins at this frame: ImGui sizes its windows over the first frames.
inline constexpr long kClipWarmupFrames = 3;

// What one recorded frame showed: the step drawn, and the kernels timed since the previous frame.
struct ClipFrame {
  std::uint64_t step = 0;
  double time = 0.0;
  Layout layout = Layout::Float4;
  Precision precision = Precision::Fp32;
  double frame_ms = 0.0;  // wall time from the frame's start to its capture (before the read-back)
  std::vector<KernelTiming> kernels;
};

class ViewerRecording {
 public:
  // `frame_limit` 0: until stopped. `start_report`: the screenshot report of the first frame (settings,
  // camera, device), which --camera-from reads. Throws RuntimeFailure when the writer cannot start.
  ViewerRecording(const ClipOutputs& outputs, FramebufferSize size, int fps, long frame_limit,
                  nlohmann::json start_report);
  ~ViewerRecording();

  bool add(Image image, ClipFrame frame);  // false once writing failed: error() says why
  std::string error() const;
  bool full() const { return m_frame_limit > 0 && frames() >= m_frame_limit; }
  long frames() const { return static_cast<long>(m_frames.size()); }
  int fps() const { return m_fps; }
  FramebufferSize size() const { return m_size; }
  const ClipOutputs& outputs() const { return m_outputs; }

  // Waits for every frame, then writes the JSON with `end_report` (the last frame's report) and why the
  // clip ended. Returns the line to print; throws RuntimeFailure (frames of a PNG sequence stay).
  std::string finish(nlohmann::json end_report, const std::string& ended_because);

 private:
  ClipOutputs m_outputs;
  FramebufferSize m_size;
  int m_fps;
  long m_frame_limit;
  nlohmann::json m_start_report;
  std::unique_ptr<ClipWriter> m_writer;
  std::vector<ClipFrame> m_frames;
};

// Frames of a clip of `seconds` at `fps`: at least one.
long clip_frame_count(double seconds, int fps);

}  // namespace coalesce
