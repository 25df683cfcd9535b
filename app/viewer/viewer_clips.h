// The viewer's clips: --record's, begun at frame kClipWarmupFrames, or the panel's; one at a time, one
// simulation step per recorded frame. Remembers which failed, for the run's exit code.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/services/clip_output.h"
#include "app/services/options.h"
#include "app/services/run_files.h"
#include "app/viewer/viewer_model.h"
#include "app/viewer/viewer_recording.h"
#include "render/render_target.h"
#include "sim/kernel_stats.h"

namespace coalesce {

// What a clip reads from the viewer and shows in it: the model (the panel's clip line, the frame count,
// the state a recorded frame drew), the controls a clip's JSON records, and where its errors go.
struct ClipContext {
  ViewerModel& model;
  const ViewerControls& controls;
  std::function<void(const std::string&)> error;  // a notice, printed and shown in the panel
};

class ViewerClips {
 public:
  ViewerClips() = default;  // no --record: only the panel's clips, at kDefaultRecordFps and until stopped
  // Checks --record's outputs again, not only before the run: the directory may have been filled since.
  // Throws UsageError as check_clip_outputs does.
  explicit ViewerClips(const Options& options);

  bool recording() const { return m_recording != nullptr; }
  // --record's clip has not begun yet: the camera holds still so that the clip starts at the --camera pose.
  bool command_line_clip_waiting() const { return m_clip_at_start.has_value(); }
  int fps() const { return m_fps; }

  // V or the record button: stops the clip being recorded, else asks for one at `path` (start_due starts it).
  void toggle(const std::string& path, const ClipContext& context);
  // --record's clip once the panel has its size, or the panel's as soon as it is asked for.
  void start_due(FramebufferSize size, const std::vector<RunInput>& inputs, const ClipContext& context);
  // The frame as drawn, panel included, and the kernels timed since the last one.
  void add_frame(FramebufferSize size, double frame_ms, const std::vector<KernelTiming>& timings,
                 const ClipContext& context);
  // Finishes the clip being recorded; --record's fails when the run ended before it began.
  void end_run(const ClipContext& context);

  // The outputs the command line asked for fail the run; the panel's own fail only a --frames run.
  bool fails_run(bool frames_given) const { return m_command_line_clip_failed || (m_failed && frames_given); }

 private:
  void stop(const std::string& because, const ClipContext& context);
  void fail(bool from_command_line, const std::string& error, const ClipContext& context);

  std::optional<ClipOutputs> m_clip_at_start;   // --record's, until frame kClipWarmupFrames
  std::optional<std::string> m_clip_requested;  // the panel's path, started on the next frame
  std::unique_ptr<ViewerRecording> m_recording;
  int m_fps = kDefaultRecordFps;
  long m_frame_limit = 0;  // --record-seconds in frames; 0: until stopped
  bool m_failed = false;
  bool m_recording_from_command_line = false;  // the clip running now is --record's
  bool m_command_line_clip_failed = false;     // --record's clip was not written: exit 1, window or not
};

}  // namespace coalesce
