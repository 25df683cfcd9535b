// ViewerRecording (see viewer_recording.h).
#include "app/viewer/viewer_recording.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/services/report_schemas.h"
#include "app/services/utc_time.h"
#include "app/viewer/clip_writer.h"
#include "app/viewer/viewer_report.h"
#include "sim/errors.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

using nlohmann::json;

json frame_json(long index, const ClipFrame& frame) {
  json kernels = json::array();
  for (const KernelTiming& k : frame.kernels) {
    json entry = {{"kernel", std::string(to_string(k.kernel))},
                  {"layout", std::string(to_string(k.layout))},
                  {"precision", std::string(to_string(k.precision))},
                  {"milliseconds", k.milliseconds},
                  {"bytes", k.bytes},
                  {"gigabytes_per_second", k.gigabytes_per_second()}};
    if (k.interactions > 0) entry["interactions_per_second"] = k.interactions_per_second();
    kernels.push_back(entry);
  }
  return {{"frame", index},
          {"step", frame.step},
          {"time", frame.time},
          {"layout", std::string(to_string(frame.layout))},
          {"precision", std::string(to_string(frame.precision))},
          {"frame_ms", frame.frame_ms},
          {"kernels", kernels}};
}

}  // namespace

long clip_frame_count(double seconds, int fps) {
  return std::max(1L, std::lround(seconds * static_cast<double>(fps)));
}

ViewerRecording::ViewerRecording(const ClipOutputs& outputs, FramebufferSize size, int fps, long frame_limit,
                                 json start_report)
    : m_outputs(outputs),
      m_size(size),
      m_fps(fps),
      m_frame_limit(frame_limit),
      m_start_report(std::move(start_report)),
      m_writer(std::make_unique<ClipWriter>(outputs, size.width, size.height, fps)) {}

ViewerRecording::~ViewerRecording() = default;

bool ViewerRecording::add(Image image, ClipFrame frame) {
  if (!m_writer->push(std::move(image))) return false;
  m_frames.push_back(std::move(frame));
  return true;
}

std::string ViewerRecording::error() const {
  return m_writer->error();
}

std::string ViewerRecording::finish(json end_report, const std::string& ended_because) {
  const bool mp4 = m_outputs.format == ClipFormat::Mp4;
  json root = m_start_report;
  root["schema"] = kClipSchema;
  name_files_from(root, m_outputs.json.target);
  root.erase("taken_utc");
  root["recorded_utc"] = utc_now();
  json clip = {{"path", m_outputs.shown},
               {"format", mp4 ? "mp4" : "png-sequence"},
               {"fps", m_fps},
               {"frames", frames()},
               {"video_seconds", static_cast<double>(frames()) / m_fps},
               {"steps_per_frame", 1},
               {"width", m_size.width},
               {"height", m_size.height},
               {"ended", ended_because}};
  if (mp4)
    clip["encoder"] = "ffmpeg (libx264, crf 18, yuv420p)";
  else
    clip["frame_pattern"] = "frame-%06d.png";
  if (!m_frames.empty()) {
    clip["first_step"] = m_frames.front().step;
    clip["last_step"] = m_frames.back().step;
  }
  root["clip"] = clip;
  json frame_list = json::array();
  for (std::size_t i = 0; i < m_frames.size(); ++i)
    frame_list.push_back(frame_json(static_cast<long>(i), m_frames[i]));
  root["frames"] = frame_list;
  root["end"] = std::move(end_report);
  // Paths and scene names are the user's bytes: invalid UTF-8 is replaced, never an exception.
  m_writer->finish(root.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  char line[512];
  std::snprintf(line, sizeof line, "wrote %s (%ld frames, %.2f s at %d fps) and %s",
                printable(m_outputs.shown).c_str(), frames(), static_cast<double>(frames()) / m_fps, m_fps,
                printable(m_outputs.json.shown).c_str());
  return line;
}

}  // namespace coalesce
