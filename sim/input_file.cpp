// The one input reader (see input_file.h).
#include "sim/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/errors.h"
#include "sim/file_type.h"

namespace coalesce {
namespace {

std::string where(std::string_view flag, const std::string& path) {
  return flag.empty() ? path : std::string(flag) + " " + path;
}

// stat's verdict on `path` as an input: returns its size, or throws naming what is wrong.
std::uint64_t check_regular(std::string_view flag, const std::string& path, const struct stat& st) {
  if (S_ISDIR(st.st_mode)) throw UsageError(where(flag, path) + " is a directory; give a file path");
  if (!S_ISREG(st.st_mode))
    throw UsageError(where(flag, path) + " is " + file_type_name(st.st_mode) +
                     ", not a regular file; coalesce reads only regular files (save it to a file first)");
  return static_cast<std::uint64_t>(st.st_size);
}

[[noreturn]] void cannot_open(std::string_view flag, const std::string& path, int error) {
  if (error == ENOENT || error == ENOTDIR)
    throw UsageError(where(flag, path) + ": no such file (check the path)");
  if (error == EACCES) throw UsageError(where(flag, path) + ": file is not readable (check its permissions)");
  throw UsageError(where(flag, path) + ": cannot open (" + std::strerror(error) + ")");
}

}  // namespace

void check_input_path(std::string_view flag, const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) cannot_open(flag, path, errno);
  check_regular(flag, path, st);
  if (::access(path.c_str(), R_OK) != 0) cannot_open(flag, path, errno);
}

InputFile::InputFile(std::string_view flag, const std::string& path) : m_flag(flag), m_path(path) {
  // stat before open: a device or FIFO is never opened at all (opening one can block or have effects).
  check_input_path(flag, path);
  m_fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (m_fd < 0) cannot_open(flag, path, errno);
  struct stat st {};
  if (::fstat(m_fd, &st) != 0) {
    const int error = errno;
    ::close(m_fd);
    cannot_open(flag, path, error);
  }
  try {
    m_size = check_regular(flag, path, st);  // it may have been swapped since the stat above
  } catch (...) {
    ::close(m_fd);
    throw;
  }
}

InputFile::~InputFile() {
  ::close(m_fd);
}

void InputFile::read_at(std::uint64_t offset, void* destination, std::size_t bytes) const {
  auto* out = static_cast<char*>(destination);
  while (bytes > 0) {
    const ssize_t n = ::pread(m_fd, out, std::min<std::size_t>(bytes, 1u << 30), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw UsageError(where(m_flag, m_path) + ": read failed (" + std::strerror(errno) + ")");
    if (n == 0)
      throw UsageError(where(m_flag, m_path) + ": the file ended early (was it changed while being read?)");
    out += n;
    offset += static_cast<std::uint64_t>(n);
    bytes -= static_cast<std::size_t>(n);
  }
}

std::string read_text_file(std::string_view flag, const std::string& path, std::uint64_t max_bytes) {
  const InputFile file(flag, path);
  if (file.size() > max_bytes)
    throw UsageError(where(flag, path) + " is " + std::to_string(file.size()) + " bytes; expected at most " +
                     std::to_string(max_bytes) + " (is it the right file?)");
  std::string text(static_cast<std::size_t>(file.size()), '\0');
  file.read_at(0, text.data(), text.size());
  return text;
}

}  // namespace coalesce
