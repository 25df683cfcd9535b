// Every file the program reads goes through here (docs/reliability.md): regular files only, opened
// without blocking so a FIFO cannot hang the program, with the size known before anything is read, so
// that no input is read without bound. Errors are UsageErrors naming the option, the path and the fix.
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

  std::uint64_t size() const { return m_size; }  // at open time
  // Exactly `bytes` bytes from `offset`; throws UsageError when the file ends first (it shrank).
  void read_at(std::uint64_t offset, void* destination, std::size_t bytes) const;

 private:
  std::string m_flag;
  std::string m_path;
  int m_fd = -1;
  std::uint64_t m_size = 0;
};

// The whole file as text, refused (UsageError) when larger than `max_bytes`.
std::string read_text_file(std::string_view flag, const std::string& path, std::uint64_t max_bytes);

}  // namespace coalesce
