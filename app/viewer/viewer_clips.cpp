// ViewerClips (see viewer_clips.h).
#include "app/viewer/viewer_clips.h"

#include <cstdio>
#include <exception>
#include <string>
#include <utility>

#include "app/services/output_paths.h"
#include "app/services/report_schemas.h"
#include "app/viewer/viewer_report.h"
#include "render/screenshot.h"
#include "sim/printable.h"

namespace coalesce {
namespace {
// --record's outputs, checked again; none without --record.
std::optional<ClipOutputs> command_line_clip(const Options& options) {
  if (options.record.empty()) return std::nullopt;
  return check_clip_outputs("--record", options.record);
}

// What a recorded frame drew: the step, and the kernels timed since the previous frame.
ClipFrame drawn_frame(const ViewerSimulation& simulation, double frame_ms,
                      const std::vector<KernelTiming>& timings) {
  ClipFrame frame;
  frame.step = simulation.step_count();
  frame.time = simulation.time();
  frame.layout = simulation.backend().layout();
  frame.precision = simulation.backend().precision();
  frame.frame_ms = frame_ms;
  frame.kernels = timings;
  return frame;
}
}  // namespace

ViewerClips::ViewerClips(const Options& options)
    : m_clip_at_start(command_line_clip(options)),
      m_fps(options.record_fps),
      m_frame_limit(options.record_seconds ? clip_frame_count(*options.record_seconds, options.record_fps)
                                           : 0) {}

void ViewerClips::toggle(const std::string& path, const ClipContext& context) {
  if (m_recording)
    stop("stopped (V or the record button)", context);
  else
    m_clip_requested = path;  // started once this frame's size is known
}

void ViewerClips::start_due(FramebufferSize size, const std::vector<RunInput>& inputs,
                            const ClipContext& context) {
  if (m_recording) return;  // one clip at a time: a second waits for the first to end
  std::optional<ClipOutputs> outputs;
  const bool from_command_line = m_clip_at_start && context.model.frames->frames >= kClipWarmupFrames;
  try {
    if (from_command_line) {
      outputs = std::exchange(m_clip_at_start, std::nullopt);
      check_clip_frame_size(*outputs, size.width, size.height);  // a HiDPI window may exceed --width
    } else if (m_clip_requested) {
      outputs = check_clip_outputs("record", *std::exchange(m_clip_requested, std::nullopt), size.width,
                                   size.height);
      // The command line's outputs were matched before the run; a path typed in the panel is matched now.
      std::vector<OutputFolder> folders;
      if (outputs->format == ClipFormat::PngSequence)
        folders.push_back({"record", outputs->shown, outputs->directory});
      check_run_files({outputs->video, outputs->json}, folders, inputs);
      check_sidecar_replaceable(outputs->json, kClipSchemaPrefix);
    }
    if (!outputs) return;
    plan_clip_outputs(*outputs);
    m_recording_from_command_line = from_command_line;
    context.model.recording = RecordingStatus{true, outputs->shown, 0, m_fps};
    m_recording = std::make_unique<ViewerRecording>(
        *outputs, size, m_fps, m_frame_limit,
        screenshot_report(context.model, context.controls, size.width, size.height));
    std::printf("coalesce: recording %s at %d fps, one step per frame\n", printable(outputs->shown).c_str(),
                m_fps);
    std::fflush(stdout);
  } catch (const std::exception& e) {
    context.model.recording = RecordingStatus{};
    fail(from_command_line, e.what(), context);
  }
}

void ViewerClips::add_frame(FramebufferSize size, double frame_ms, const std::vector<KernelTiming>& timings,
                            const ClipContext& context) {
  if (!m_recording) return;
  const FramebufferSize clip = m_recording->size();
  if (size.width != clip.width || size.height != clip.height) {
    stop("the window changed size (a clip keeps one size)", context);
    return;
  }
  ClipFrame frame = drawn_frame(*context.model.simulation, frame_ms, timings);
  if (!m_recording->add(read_framebuffer(size.width, size.height), std::move(frame))) {
    stop("writing failed", context);
    return;
  }
  context.model.recording.frames = m_recording->frames();
  if (m_recording->full()) stop("--record-seconds reached", context);
}

void ViewerClips::end_run(const ClipContext& context) {
  if (m_recording) {
    const bool cut_short = m_frame_limit > 0;  // --record-seconds had frames to go
    stop(cut_short ? "the run ended before --record-seconds (see --frames)" : "the run ended", context);
  }
  if (m_clip_at_start) {
    fail(true,
         "--record " + m_clip_at_start->shown + ": the run ended before the clip began (it starts at frame " +
             std::to_string(kClipWarmupFrames + 1) + "; give --frames " +
             std::to_string(kClipWarmupFrames + 1) + " or more)",
         context);
  }
}

void ViewerClips::stop(const std::string& because, const ClipContext& context) {
  if (!m_recording) return;
  std::unique_ptr<ViewerRecording> recording = std::move(m_recording);
  context.model.recording = RecordingStatus{};
  const FramebufferSize size = recording->size();
  try {
    const std::string line = recording->finish(
        screenshot_report(context.model, context.controls, size.width, size.height), because);
    context.model.last_clip = recording->outputs().shown;
    std::printf("coalesce: %s\n", line.c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    fail(m_recording_from_command_line, e.what(), context);
  }
}

void ViewerClips::fail(bool from_command_line, const std::string& error, const ClipContext& context) {
  m_failed = true;
  m_command_line_clip_failed = m_command_line_clip_failed || from_command_line;
  context.error(error);
}

}  // namespace coalesce
