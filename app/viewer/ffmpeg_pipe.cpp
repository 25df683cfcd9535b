// FfmpegPipe: posix_spawn with one pipe as the child's stdin and another as its stderr; no shell, so no
// quoting of paths.
#include "app/viewer/ffmpeg_pipe.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <system_error>
#include <vector>

#include "sim/errors.h"
#include "sim/printable.h"

extern char** environ;

namespace coalesce {
namespace {

// The first line ffmpeg wrote (usually the cause; later ones repeat it), escaped and cut short.
std::string first_line(const std::string& output) {
  std::size_t start = 0;
  while (start < output.size()) {
    std::size_t end = output.find_first_of("\r\n", start);
    if (end == std::string::npos) end = output.size();
    if (end > start) {
      std::string line = printable(output.substr(start, end - start));
      if (line.size() > 240) line = line.substr(0, 240) + "...";
      return line;
    }
    start = end + 1;
  }
  return "";
}

std::string exit_description(int status, const std::string& output) {
  // ffmpeg's writes past `ulimit -f` raise SIGXFSZ, which kills it (its disposition is the default).
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGXFSZ)
    return "ffmpeg stopped at the file size limit (ulimit -f): raise it (ulimit -f unlimited), or record a "
           "shorter clip or a smaller window";
  std::string what = WIFEXITED(status)     ? "ffmpeg exited with status " + std::to_string(WEXITSTATUS(status))
                     : WIFSIGNALED(status) ? "ffmpeg was killed by signal " + std::to_string(WTERMSIG(status))
                                           : "ffmpeg stopped unexpectedly";
  const std::string line = first_line(output);
  return line.empty() ? what : what + ": " + line;
}

// A write to a pipe whose reader is gone raises SIGPIPE, which would kill the viewer: block it for this
// thread around the write and discard the one it raised, so the write just fails with EPIPE.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&m_pipe);
    sigaddset(&m_pipe, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &m_pipe, &m_old);
  }
  ~SigpipeBlocked() {
    const timespec zero{0, 0};
    sigset_t pending;
    sigpending(&pending);
    if (sigismember(&pending, SIGPIPE)) sigtimedwait(&m_pipe, nullptr, &zero);
    pthread_sigmask(SIG_SETMASK, &m_old, nullptr);
  }

 private:
  sigset_t m_pipe{};
  sigset_t m_old{};
};

}  // namespace

FfmpegPipe::FfmpegPipe(const std::string& program, int width, int height, int fps, const std::string& output) {
  int fds[2], err[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw RuntimeFailure(std::string("cannot start ffmpeg: pipe failed (") + std::strerror(errno) + ")");
  if (::pipe2(err, O_CLOEXEC) != 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw RuntimeFailure(std::string("cannot start ffmpeg: pipe failed (") + std::strerror(error) + ")");
  }
  const std::string size = std::to_string(width) + "x" + std::to_string(height);
  // yuv420p (what players expect) needs even sides: pad an odd window by one black row or column.
  std::vector<std::string> args = {program, "-hide_banner", "-loglevel", "error", "-f", "rawvideo",
                                   "-pix_fmt", "rgba", "-video_size", size, "-framerate", std::to_string(fps),
                                   "-i", "pipe:0", "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264",
                                   "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p",
                                   "-movflags", "+faststart", "-f", "mp4", "-y",
                                   // file: so a colon or a leading dash in the path is never a protocol or an option
                                   "file:" + output};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
  // Its own process group: Ctrl-C reaches the viewer alone, which then ends the clip cleanly through stdin.
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // SIGXFSZ too: we ignore it (app/main.cpp), and an ignored signal stays ignored across exec; at its
  // default, ffmpeg at `ulimit -f` ends with a status we can name instead of a write error it may not report.
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGXFSZ);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  const int error = posix_spawn(&m_pid, program.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  ::close(err[1]);
  if (error != 0) {
    ::close(fds[1]);
    ::close(err[0]);
    m_pid = -1;
    throw RuntimeFailure("cannot start " + program + " (" + std::strerror(error) + ")");
  }
  m_stdin = fds[1];
  try {
    m_stderr_reader = std::thread([this, fd = err[0]] { drain(fd); });
  } catch (const std::system_error&) {
    ::close(err[0]);  // ffmpeg's next line then ends it with SIGPIPE: finish() reports that
  }
}

FfmpegPipe::~FfmpegPipe() {
  finish();
}

// Reads ffmpeg's stderr until it exits, keeping the first kKeptBytes (the cause comes first) and dropping
// the rest, so a chatty encoder costs bounded memory and never blocks on a full pipe.
void FfmpegPipe::drain(int fd) {
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    const std::size_t room = kKeptBytes - std::min(kKeptBytes, m_stderr_start.size());
    m_stderr_start.append(buffer, std::min(room, static_cast<std::size_t>(n)));
  }
  ::close(fd);
}

std::string FfmpegPipe::write(std::string_view bytes) {
  if (m_stdin < 0) return "ffmpeg's input is closed";
  const SigpipeBlocked blocked;
  while (!bytes.empty()) {
    const ssize_t n = ::write(m_stdin, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno == EPIPE ? "ffmpeg stopped reading frames" : std::string("writing to ffmpeg failed (") +
                                                                    std::strerror(errno) + ")";
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return "";
}

std::string FfmpegPipe::finish() {
  if (m_stdin >= 0) {
    ::close(m_stdin);
    m_stdin = -1;
  }
  if (m_pid < 0) return "";
  int status = 0;
  pid_t done;
  do {
    done = ::waitpid(m_pid, &status, 0);
  } while (done < 0 && errno == EINTR);
  m_pid = -1;
  if (done < 0) return std::string("waiting for ffmpeg failed (") + std::strerror(errno) + ")";
  if (m_stderr_reader.joinable()) m_stderr_reader.join();  // ffmpeg is gone: its stderr is at its end
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "" : exit_description(status, m_stderr_start);
}

}  // namespace coalesce
