// The ffmpeg program as a child process fed raw RGBA frames through a pipe: the mp4 half of --record.
#pragma once

#include <string>
#include <string_view>
#include <thread>

#include <sys/types.h>

namespace coalesce {

class FfmpegPipe {
 public:
  // Starts `program` encoding width x height RGBA frames at `fps` into `output` (H.264, yuv420p, mp4).
  // Throws RuntimeFailure if it cannot be started. Its stderr is read by a thread that keeps the first
  // kKeptBytes, so its own lines never reach the user raw: a failure quotes the first one, escaped.
  FfmpegPipe(const std::string& program, int width, int height, int fps, const std::string& output);
  ~FfmpegPipe();  // an unfinished encode: stdin closed, the process waited for
  FfmpegPipe(const FfmpegPipe&) = delete;
  FfmpegPipe& operator=(const FfmpegPipe&) = delete;

  // One frame's bytes; "" or why it failed (ffmpeg exited: a broken pipe, never a SIGPIPE).
  std::string write(std::string_view bytes);
  // Closes stdin and waits: "" when ffmpeg exited 0, else what went wrong, in one line.
  std::string finish();

  static constexpr std::size_t kKeptBytes = 4096;

 private:
  void drain(int fd);

  int m_stdin = -1;
  pid_t m_pid = -1;
  std::thread m_stderr_reader;
  std::string m_stderr_start;  // written by m_stderr_reader, read once it is joined
};

}  // namespace coalesce
