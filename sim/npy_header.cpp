// A small recursive-descent parser for the subset of Python literals that .npy headers use.
#include "sim/npy_header.h"

#include <cctype>

#include "sim/printable.h"

namespace coalesce {

namespace {

class Parser {
 public:
  explicit Parser(const std::string& text) : m_text(text) {}

  std::optional<NpyHeader> parse(std::string& error) {
    NpyHeader h;
    bool have_descr = false, have_order = false, have_shape = false;
    if (!take('{')) return fail(error, "header does not start with '{'");
    while (true) {
      if (take('}')) break;
      std::string key;
      if (!string(key)) return fail(error, "expected a quoted key");
      if (!take(':')) return fail(error, "expected ':' after '" + excerpt(key) + "'");
      // A second value would be merged into the first (two shapes read as one); NumPy keeps the last.
      const bool again = (key == "descr" && have_descr) || (key == "fortran_order" && have_order) ||
                         (key == "shape" && have_shape);
      if (again) return fail(error, "'" + key + "' is given twice");
      if (key == "descr") {
        if (!string(h.descr)) return fail(error, "'descr' is not a string");
        have_descr = true;
      } else if (key == "fortran_order") {
        if (word("True"))
          h.fortran_order = true;
        else if (word("False"))
          h.fortran_order = false;
        else
          return fail(error, "'fortran_order' is not True or False");
        have_order = true;
      } else if (key == "shape") {
        if (!tuple(h.shape)) return fail(error, "'shape' is not a tuple of integers");
        have_shape = true;
      } else {
        return fail(error, "unexpected key '" + excerpt(key) + "'");
      }
      if (take(',')) continue;
      if (take('}')) break;
      return fail(error, "expected ',' or '}'");
    }
    skip_space();
    if (m_pos != m_text.size()) return fail(error, "unexpected text after the dict");
    if (!have_descr || !have_order || !have_shape)
      return fail(error, "missing key (needs 'descr', 'fortran_order' and 'shape')");
    return h;
  }

 private:
  std::optional<NpyHeader> fail(std::string& error, const std::string& what) {
    error = what + " at header offset " + std::to_string(m_pos);
    return std::nullopt;
  }
  void skip_space() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
  }
  bool take(char c) {
    skip_space();
    if (m_pos < m_text.size() && m_text[m_pos] == c) {
      ++m_pos;
      return true;
    }
    return false;
  }
  bool word(const std::string& w) {
    skip_space();
    if (m_text.compare(m_pos, w.size(), w) != 0) return false;
    m_pos += w.size();
    return true;
  }
  bool string(std::string& out) {
    skip_space();
    if (m_pos >= m_text.size() || (m_text[m_pos] != '\'' && m_text[m_pos] != '"')) return false;
    const char quote = m_text[m_pos++];
    const auto end = m_text.find(quote, m_pos);
    if (end == std::string::npos) return false;
    out = m_text.substr(m_pos, end - m_pos);
    m_pos = end + 1;
    return true;
  }
  bool integer(std::int64_t& out) {
    skip_space();
    const std::size_t start = m_pos;
    out = 0;
    while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
      if (out > (INT64_MAX - 9) / 10) return false;
      out = out * 10 + (m_text[m_pos++] - '0');
    }
    if (m_pos < m_text.size() && m_text[m_pos] == 'L') ++m_pos;  // Python 2 longs
    return m_pos > start;
  }
  // (), (N,), (N, 7) and (N, 7,): Python's tuple spellings.
  bool tuple(std::vector<std::int64_t>& out) {
    if (!take('(')) return false;
    while (true) {
      if (take(')')) return true;
      std::int64_t v;
      if (!integer(v)) return false;
      out.push_back(v);
      if (take(',')) continue;
      return take(')');
    }
  }

  const std::string& m_text;
  std::size_t m_pos = 0;
};

}  // namespace

std::optional<NpyHeader> parse_npy_header(const std::string& text, std::string& error) {
  return Parser(text).parse(error);
}

}  // namespace coalesce
