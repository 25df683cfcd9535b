// ClipWriter (see clip_writer.h).
#include "app/viewer/clip_writer.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <system_error>

#include "app/services/new_folder.h"
#include "app/viewer/ffmpeg_pipe.h"
#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/usable_cpus.h"

namespace coalesce {
namespace {

// PNG encoding is the slow part (stb, ~50-100 ms a 1600x900 frame): a few workers keep up with a GPU.
int png_workers() {
  const int cores = usable_cpus().count;
  return std::clamp(cores - 1, 1, 8);
}

}  // namespace

ClipWriter::ClipWriter(const ClipOutputs& outputs, int width, int height, int fps)
    : m_outputs(outputs), m_width(width), m_height(height) {
  int workers = 1;
  if (outputs.format == ClipFormat::Mp4) {
    m_pending = std::make_unique<PendingOutput>(outputs.video);
    m_ffmpeg = std::make_unique<FfmpegPipe>(outputs.ffmpeg, width, height, fps, m_pending->temporary());
  } else {
    // Checked empty or absent before the run; checked again now, since someone may have filled it since.
    create_new_folder({outputs.flag, outputs.shown, outputs.directory, outputs.directory_exists, {}});
    workers = png_workers();
  }
  try {
    for (int i = 0; i < workers; ++i) m_workers.emplace_back([this] { work(); });
  } catch (const std::system_error& e) {
    stop_workers();
    throw RuntimeFailure(outputs.shown + ": cannot start the clip's writer threads (" + e.what() + ")");
  }
}

void ClipWriter::stop_workers() {
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_closing = true;
    m_queue.clear();
  }
  m_changed.notify_all();
  for (std::thread& worker : m_workers)
    if (worker.joinable()) worker.join();
}

ClipWriter::~ClipWriter() {
  stop_workers();
  // m_ffmpeg's destructor closes its input and waits; m_pending's removes the unfinished .mp4.
}

bool ClipWriter::push(Image image) {
  std::unique_lock<std::mutex> lock(m_mutex);
  m_changed.wait(lock, [this] { return m_queue.size() < kMaxQueuedFrames || !m_error.empty(); });
  if (!m_error.empty()) return false;
  m_queue.emplace_back(m_next_index++, std::move(image));
  lock.unlock();
  m_changed.notify_all();
  return true;
}

std::string ClipWriter::error() const {
  const std::lock_guard<std::mutex> lock(m_mutex);
  return m_error;
}

void ClipWriter::fail(const std::string& why) {
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    if (m_error.empty()) m_error = why;
    m_queue.clear();
  }
  m_changed.notify_all();
}

void ClipWriter::work() {
  while (true) {
    std::pair<long, Image> item;
    {
      std::unique_lock<std::mutex> lock(m_mutex);
      m_changed.wait(lock, [this] { return !m_queue.empty() || m_closing; });
      if (m_queue.empty()) return;
      item = std::move(m_queue.front());
      m_queue.pop_front();
    }
    m_changed.notify_all();
    try {
      write_frame(item.first, item.second);
    } catch (const std::exception& e) {
      fail(e.what());
    }
  }
}

void ClipWriter::write_frame(long index, const Image& image) {
  if (m_ffmpeg) {
    const std::string error = m_ffmpeg->write(std::string_view(
        reinterpret_cast<const char*>(image.rgba.data()), image.rgba.size()));
    if (!error.empty()) throw RuntimeFailure(m_outputs.flag + " " + m_outputs.shown + ": " + error);
    return;
  }
  const std::string path = clip_frame_path(m_outputs.directory, index);
  const std::string png = encode_png(image);
  if (png.empty()) throw RuntimeFailure(path + ": PNG encoding failed");
  write_output(recheck_output_path("--record", path), {png});
}

void ClipWriter::finish(std::string_view json) {
  {
    const std::lock_guard<std::mutex> lock(m_mutex);
    m_closing = true;
  }
  m_changed.notify_all();
  for (std::thread& worker : m_workers)
    if (worker.joinable()) worker.join();
  std::string error = this->error();
  if (!m_ffmpeg) {
    if (!error.empty()) throw RuntimeFailure(error + "; frames written so far stay");
    return write_output(m_outputs.json, {json});
  }
  const std::string encoder = m_ffmpeg->finish();
  // ffmpeg's own cause, rather than the broken pipe its end made for the frame writer.
  if (!encoder.empty()) error = m_outputs.flag + " " + m_outputs.shown + ": " + encoder;
  // A clip beside the JSON of another clip would mislead --camera-from: both are replaced, or neither.
  if (error.empty()) return write_outputs_together({{m_outputs.json, {json}}}, *m_pending);
  throw RuntimeFailure(error + "; the clip was not written" +
                       (m_pending->replaces_a_file() ? " (" + m_outputs.shown + " is untouched)" : ""));
}

}  // namespace coalesce
