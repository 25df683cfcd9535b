// printable, excerpt and the other message texts (see printable.h).
#include "sim/printable.h"

#include <cstdio>

namespace coalesce {
namespace {

void append_escaped(std::string& out, unsigned char c) {
  char hex[5];
  std::snprintf(hex, sizeof hex, "\\x%02x", c);
  out += hex;
}

bool is_continuation(unsigned char c) {
  return (c & 0xc0) == 0x80;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const bool c1 = c == 0xc2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                    static_cast<unsigned char>(text[i + 1]) <= 0x9f;
    if (c < 0x20 || c == 0x7f) {
      append_escaped(out, c);
    } else if (c1) {
      append_escaped(out, c);
      append_escaped(out, static_cast<unsigned char>(text[++i]));
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string one_line(std::string_view text) {
  std::string flat(text);
  for (char& c : flat)
    if (c == '\n' || c == '\r') c = ' ';
  return printable(flat);
}

std::string excerpt(std::string_view text, std::size_t shown) {
  std::string out;
  std::size_t at = 0;
  while (at < text.size()) {
    // A character with its continuation bytes is one unit, so no cut falls inside it or inside its escape;
    // the scan stops past `shown`, so a megabyte value costs no more than a short one.
    std::size_t end = at + 1;
    while (end < text.size() && end - at <= shown && is_continuation(static_cast<unsigned char>(text[end])))
      ++end;
    const std::string unit = printable(text.substr(at, end - at));
    if (out.size() + unit.size() > shown) break;
    out += unit;
    at = end;
  }
  if (at == text.size()) return out;
  return out + "... (" + std::to_string(text.size()) + " bytes)";
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string counted(long long count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

}  // namespace coalesce
