// Every file the program reads goes through here (docs/reliability.md): regular files only, opened
// without blocking so a FIFO cannot hang the program, with the size known before anything is read, so
// that no input is read without bound. A file that reports size 0 but has content (/proc/cpuinfo) is
// read up to the caller's bound or refused, never taken for empty. Errors are UsageErrors naming the
// option, the path and the fix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace coalesce {

// The checks of InputFile's constructor without opening anything, for the command line's early checks.
void check_input_path(std::string_view flag, const std::string& path);

class InputFile {
 public:
  InputFile(std::string_view flag, const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  std::uint64_t size() const { return m_size; }  // at open time, as stat reports it
  // Stat said 0 bytes, yet the file has content (/proc and /sys files): its length is known only by reading.
  bool size_unknown() const { return m_size_unknown; }
  // Throws the one honest line for such a file, for readers that must know the size before reading.
  void require_known_size() const;
  // Throws "... is N bytes; expected at most MAX" when the size at open is over `max_bytes`.
  void require_at_most(std::uint64_t max_bytes) const;
  // The same refusal for a file found larger than `max_bytes` only by reading it.
  [[noreturn]] void refuse_larger_than(std::uint64_t max_bytes) const;

  // Exactly `bytes` bytes from `offset`; throws UsageError when the file ends first (it shrank).
  void read_at(std::uint64_t offset, void* destination, std::size_t bytes) const;
  // Up to `bytes` bytes from `offset`: how many were read, 0 at the end of the file.
  std::size_t read_some(std::uint64_t offset, void* destination, std::size_t bytes) const;
  // "FLAG PATH" (or PATH without a flag), as every message about this file begins.
  std::string where() const;

 private:
  std::string m_flag;
  std::string m_path;
  int m_fd = -1;
  std::uint64_t m_size = 0;
  bool m_size_unknown = false;
};

// The whole file as text, refused (UsageError) when larger than `max_bytes` (by its size, or, for a file
// whose size is unknown, once reading passes the bound).
std::string read_text_file(std::string_view flag, const std::string& path, std::uint64_t max_bytes);

}  // namespace coalesce
