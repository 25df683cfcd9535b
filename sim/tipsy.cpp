// load_tipsy: a Tipsy file through InputFile (the decoder is tipsy_read.cpp), and its IDs from PATH.iord,
// the ASCII auxiliary array of ChaNGa and pynbody: the count on the first line, then one integer per line.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "sim/input_file.h"
#include "sim/printable.h"
#include "sim/tipsy.h"

namespace coalesce {

namespace {

constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
// UINT64_MAX has 20 digits; a longer word is no ID, and is never held whole.
constexpr std::size_t kMaxIdDigits = 20;
// Bytes a line may take beside its digits ("\r\n" and a little padding): bounds the file before reading.
constexpr std::uint64_t kMaxIdLineBytes = kMaxIdDigits + 12;

// The words of an ASCII array, read in bounded chunks: the count first, then the IDs.
class IdReader {
 public:
  IdReader(const std::string& name, const std::string& tipsy_path, std::size_t expected)
      : m_name(name), m_tipsy_path(tipsy_path), m_expected(expected) {
    m_ids.reserve(expected);
  }

  void feed(const char* bytes, std::size_t size) {
    for (std::size_t i = 0; i < size; ++i) {
      const char c = bytes[i];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f') {
        end_word();
        m_line += c == '\n';
      } else if (m_word.size() <= kMaxIdDigits) {
        m_word += c;  // one more than an ID can have is enough to refuse the word
      }
    }
  }

  std::vector<std::uint64_t> finish() {
    end_word();
    if (!m_have_count)
      fail("is empty; expected the count " + std::to_string(m_expected) +
           " on its first line, then one ID a line");
    if (m_ids.size() != m_expected)
      fail("holds " + std::to_string(m_ids.size()) + " IDs after its count line; expected " +
           std::to_string(m_expected) + ", one per particle of " + m_tipsy_path);
    return std::move(m_ids);
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw TipsyError(m_name + ": " + message); }

  std::uint64_t word_value(const char* what) const {
    std::uint64_t value = 0;
    bool ok = !m_word.empty() && m_word.size() <= kMaxIdDigits;
    for (const char c : m_word) {
      if (c < '0' || c > '9' || value > (UINT64_MAX - (c - '0')) / 10) {
        ok = false;
        break;
      }
      value = value * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (!ok)
      fail("'" + excerpt(m_word, 24) + "' at line " + std::to_string(m_line) + " is not " + what +
           "; expected an ASCII Tipsy array: the count on the first line, then one non-negative integer ID "
           "a " +
           "line (a binary .iord is not read)");
    return value;
  }

  void end_word() {
    if (m_word.empty()) return;
    if (!m_have_count) {
      const std::uint64_t count = word_value("a count");
      if (count != m_expected)
        fail("first line says " + std::to_string(count) + " IDs; expected " + std::to_string(m_expected) +
             ", one per particle of " + m_tipsy_path + " (its nbodies)");
      m_have_count = true;
    } else {
      if (m_ids.size() == m_expected)
        fail("holds more than " + std::to_string(m_expected) + " IDs after its count line; expected " +
             std::to_string(m_expected) + ", one per particle of " + m_tipsy_path);
      m_ids.push_back(word_value("an ID"));
    }
    m_word.clear();
  }

  const std::string& m_name;
  const std::string& m_tipsy_path;
  std::size_t m_expected;
  std::vector<std::uint64_t> m_ids;
  std::string m_word;
  std::size_t m_line = 1;
  bool m_have_count = false;
};

std::vector<std::uint64_t> read_tipsy_ids(const std::string& ids_path, const std::string& tipsy_path,
                                          std::size_t expected) {
  const InputFile file("", ids_path);
  file.require_known_size();
  file.require_at_most((std::uint64_t{expected} + 1) * kMaxIdLineBytes);
  IdReader reader(ids_path, tipsy_path, expected);
  std::string chunk(static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), kChunkBytes)), '\0');
  for (std::uint64_t done = 0; done < file.size();) {
    const auto bytes = static_cast<std::size_t>(std::min<std::uint64_t>(file.size() - done, chunk.size()));
    file.read_at(done, chunk.data(), bytes);
    reader.feed(chunk.data(), bytes);
    done += bytes;
  }
  return reader.finish();
}

}  // namespace

std::string tipsy_ids_path(const std::string& tipsy_path) {
  return final_target(tipsy_path) + kTipsyIdsSuffix;
}

StateContents load_tipsy(const std::string& path) {
  StateContents state;
  {
    const InputFile file("", path);
    file.require_known_size();  // the header's counts are checked against the size before any particle
    state =
        decode_tipsy(path, file.size(), [&file](std::uint64_t offset, void* destination, std::size_t bytes) {
          file.read_at(offset, destination, bytes);
        });
  }
  // Anything by that name, a dangling link too, is meant as the IDs: InputFile says what is wrong with it.
  const std::string ids_path = tipsy_ids_path(path);
  std::error_code error;
  if (std::filesystem::symlink_status(ids_path, error).type() == std::filesystem::file_type::not_found)
    return state;
  state.ids = read_tipsy_ids(ids_path, path, state.records.size());
  state.ids_from_file = true;
  return state;
}

}  // namespace coalesce
