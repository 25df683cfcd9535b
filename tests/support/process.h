// Shared by the test folders that run the real coalesce executable: a scratch directory, the executable's
// path, a file reader and a process runner capturing exit code, stdout and stderr. Header-only: each test
// target defines its own COALESCE_EXECUTABLE (tests/CMakeLists.txt).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace coalesce::testing {

struct ProcessResult {
  int exit_code = -1;  // -1: killed by a signal or timed out
  std::string out;
  std::string err;

  // stderr's lines (a final line without '\n' counts too).
  std::vector<std::string> err_lines() const {
    std::vector<std::string> lines;
    std::istringstream stream(err);
    for (std::string line; std::getline(stream, line);) lines.push_back(line);
    return lines;
  }
};

// A fresh directory under the system temp dir, removed with its contents when the object goes.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "coalesce-test-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    m_path = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string file(const std::string& name) const { return (m_path / name).string(); }

 private:
  std::filesystem::path m_path;
};

// COALESCE_EXECUTABLE_OVERRIDE lets scripts/gpu-session point the tests at a copied binary.
inline std::string coalesce_executable() {
  const char* override_path = std::getenv("COALESCE_EXECUTABLE_OVERRIDE");
  return override_path && *override_path ? override_path : COALESCE_EXECUTABLE;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Runs argv (argv[0] looked up on PATH unless it has a '/'); `unset` names environment variables removed
// in the child, `set` holds "NAME=VALUE" entries added to it. Kills it after `timeout_seconds`.
inline ProcessResult run_process(const std::vector<std::string>& arguments,
                                 const std::vector<std::string>& unset = {},
                                 const std::vector<std::string>& set = {}, int timeout_seconds = 240) {
  TempDir capture;
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
  ProcessResult result;
  if (pid < 0) return result;
  int status = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      result.out = read_file(out_path);
      result.err = read_file(err_path) + "[test: timed out]";
      return result;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  result.out = read_file(out_path);
  result.err = read_file(err_path);
  return result;
}

}  // namespace coalesce::testing
