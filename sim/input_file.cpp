// The one input reader (see input_file.h).
#include "sim/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
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

std::string too_large(const std::string& file, const std::string& size, std::uint64_t max_bytes) {
  return file + " is " + size + " bytes; expected at most " + std::to_string(max_bytes) + " (is it the right file?)";
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
    // Stat's 0 is not the truth for /proc and /sys files: one byte read tells them from an empty file.
    char probe = 0;
    m_size_unknown = m_size == 0 && read_some(0, &probe, 1) == 1;
  } catch (...) {
    ::close(m_fd);
    throw;
  }
}

InputFile::~InputFile() {
  ::close(m_fd);
}

std::string InputFile::where() const {
  return coalesce::where(m_flag, m_path);
}

void InputFile::require_known_size() const {
  if (m_size_unknown)
    throw UsageError(where() + " reports size 0 but has content (a /proc or /sys file?); its size must be " +
                     "known before it is read: copy it to a regular file first");
}

void InputFile::require_at_most(std::uint64_t max_bytes) const {
  if (m_size > max_bytes) throw UsageError(too_large(where(), std::to_string(m_size), max_bytes));
}

void InputFile::refuse_larger_than(std::uint64_t max_bytes) const {
  throw UsageError(too_large(where(), "over " + std::to_string(max_bytes), max_bytes));
}

std::size_t InputFile::read_some(std::uint64_t offset, void* destination, std::size_t bytes) const {
  while (true) {
    const ssize_t n = ::pread(m_fd, destination, std::min<std::size_t>(bytes, 1u << 30), static_cast<off_t>(offset));
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) throw UsageError(where() + ": read failed (" + std::strerror(errno) + ")");
  }
}

void InputFile::read_at(std::uint64_t offset, void* destination, std::size_t bytes) const {
  auto* out = static_cast<char*>(destination);
  while (bytes > 0) {
    const std::size_t n = read_some(offset, out, bytes);
    if (n == 0) throw UsageError(where() + ": the file ended early (was it changed while being read?)");
    out += n;
    offset += n;
    bytes -= n;
  }
}

std::string read_text_file(std::string_view flag, const std::string& path, std::uint64_t max_bytes) {
  const InputFile file(flag, path);
  file.require_at_most(max_bytes);
  if (!file.size_unknown()) {
    std::string text(static_cast<std::size_t>(file.size()), '\0');
    file.read_at(0, text.data(), text.size());
    return text;
  }
  // Read to the end, at most one chunk past the bound, which is then refused.
  std::string text;
  char chunk[1 << 16];
  while (const std::size_t n = file.read_some(text.size(), chunk, sizeof chunk)) {
    text.append(chunk, n);
    if (text.size() > max_bytes) file.refuse_larger_than(max_bytes);
  }
  return text;
}

}  // namespace coalesce
