// The promise every refusal's what() keeps, whatever the input held (issue 30): one printable line, short
// enough to read at a glance. Shared by the fuzz targets' checks. Header-only.
#pragma once

#include <cstddef>
#include <string>

namespace coalesce::fuzz {

inline constexpr std::size_t kMaxErrorLine = 300;

// "" when `what` keeps the promise, else how it does not.
inline std::string error_line_problem(const std::string& what) {
  if (what.size() > kMaxErrorLine)
    return "a refusal of " + std::to_string(what.size()) + " bytes: " + what.substr(0, 200);
  for (std::size_t i = 0; i < what.size(); ++i) {
    const auto c = static_cast<unsigned char>(what[i]);
    const bool c1 =
        c == 0xc2 && i + 1 < what.size() && (static_cast<unsigned char>(what[i + 1]) & 0xe0) == 0x80;
    if (c < 0x20 || c == 0x7f || c1) return "a refusal with a control character: " + what;
  }
  return {};
}

}  // namespace coalesce::fuzz
