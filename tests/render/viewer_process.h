// Test support for the viewer tests: runs a command (the real coalesce, possibly under xvfb-run) with
// environment changes, captures exit code and output, and decodes screenshots to check their pixels.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <stb_image.h>

namespace coalesce::testing {

struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal or timed out
  std::string out;
  std::string err;
};

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "coalesce-render-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    m_path = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  std::filesystem::path m_path;
};

inline std::string viewer_executable() {
  const char* override_path = std::getenv("COALESCE_EXECUTABLE_OVERRIDE");
  return override_path && *override_path ? override_path : COALESCE_EXECUTABLE;
}

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// Runs argv (argv[0] looked up on PATH); `unset` names environment variables removed in the child,
// `set` holds "NAME=VALUE" entries added to it.
inline CommandResult run_command(const std::vector<std::string>& arguments,
                                 const std::vector<std::string>& unset = {},
                                 const std::vector<std::string>& set = {}, int timeout_seconds = 240) {
  ScratchDir capture;
  const std::string out_path = capture.file("stdout"), err_path = capture.file("stderr");
  std::vector<char*> argv;
  for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    for (const std::string& name : unset) ::unsetenv(name.c_str());
    for (const std::string& entry : set) {
      const size_t eq = entry.find('=');
      ::setenv(entry.substr(0, eq).c_str(), entry.substr(eq + 1).c_str(), 1);
    }
    const int out_fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err_fd = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out_fd < 0 || err_fd < 0) ::_exit(126);
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(err_fd, STDERR_FILENO);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  CommandResult result;
  if (pid < 0) return result;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      result.err = slurp(err_path) + "[test: timed out]";
      return result;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.out = slurp(out_path);
  result.err = slurp(err_path);
  return result;
}

// A decoded RGBA screenshot.
struct Picture {
  int width = 0;
  int height = 0;
  std::vector<unsigned char> rgba;
  const unsigned char* at(int x, int y) const { return &rgba[(static_cast<size_t>(y) * width + x) * 4]; }
  int luminance(int x, int y) const {
    const unsigned char* p = at(x, y);
    return (p[0] * 3 + p[1] * 6 + p[2]) / 10;
  }
};

inline Picture load_picture(const std::string& path) {
  Picture picture;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &picture.width, &picture.height, &channels, 4);
  if (!data) return picture;
  picture.rgba.assign(data, data + static_cast<size_t>(picture.width) * picture.height * 4);
  stbi_image_free(data);
  return picture;
}

}  // namespace coalesce::testing
