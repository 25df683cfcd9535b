// Writes a clip's frames off the frame loop: PNGs encoded by worker threads into the clip's directory, or
// raw frames piped in order to ffmpeg. The frame loop waits only when kMaxQueuedFrames are still queued.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "app/services/clip_output.h"
#include "render/screenshot.h"

namespace coalesce {

class FfmpegPipe;
class PendingOutput;

class ClipWriter {
 public:
  // Creates the directory of a PNG sequence, or starts ffmpeg writing a temporary file beside the .mp4.
  // Throws RuntimeFailure when neither can start.
  ClipWriter(const ClipOutputs& outputs, int width, int height, int fps);
  ~ClipWriter();  // an unfinished clip: workers stopped, an .mp4's temporary file removed
  ClipWriter(const ClipWriter&) = delete;
  ClipWriter& operator=(const ClipWriter&) = delete;

  // Queues frame `image` (the size given at construction). False once a write has failed: see error().
  bool push(Image image);
  std::string error() const;
  // Waits for every queued frame, then replaces the clip's JSON with `json`, together with the .mp4 (both
  // or neither). Throws RuntimeFailure naming the first failure; frames of a PNG sequence stay.
  void finish(std::string_view json);
  static constexpr std::size_t kMaxQueuedFrames = 6;

 private:
  void work();
  void stop_workers();  // drops queued frames and joins
  void write_frame(long index, const Image& image);
  void fail(const std::string& why);

  ClipOutputs m_outputs;
  int m_width;
  int m_height;
  std::unique_ptr<PendingOutput> m_pending;  // the .mp4 ffmpeg writes, until finish() renames it
  std::unique_ptr<FfmpegPipe> m_ffmpeg;
  mutable std::mutex m_mutex;
  std::condition_variable m_changed;
  std::deque<std::pair<long, Image>> m_queue;
  long m_next_index = 0;
  bool m_closing = false;
  std::string m_error;
  std::vector<std::thread> m_workers;
};

}  // namespace coalesce
