// Bounded JSON reading (see json_input.h): nlohmann's SAX interface feeds a builder that keeps only what
// the reader asked for, so memory follows what is kept, never the shape of the file.
#include "app/services/json_input.h"

#include <algorithm>
#include <cctype>
#include <istream>
#include <streambuf>
#include <utility>

#include "sim/errors.h"
#include "sim/input_file.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

using nlohmann::json;

// The file's bytes for the parser, a chunk at a time and at most `max_bytes` in all: a file that grows
// while it is read, or reports size 0 but has content, is stopped at the bound.
class BoundedFileBuffer final : public std::streambuf {
 public:
  BoundedFileBuffer(const InputFile& file, std::uint64_t max_bytes) : m_file(file), m_max_bytes(max_bytes) {}
  bool passed_bound() const { return m_passed_bound; }

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    const std::uint64_t allowed = m_max_bytes - m_offset;
    if (allowed == 0) {
      char probe = 0;
      m_passed_bound = m_file.read_some(m_offset, &probe, 1) == 1;
      return traits_type::eof();
    }
    const std::size_t n = m_file.read_some(m_offset, m_chunk, std::min<std::uint64_t>(sizeof m_chunk, allowed));
    if (n == 0) return traits_type::eof();
    m_offset += n;
    setg(m_chunk, m_chunk, m_chunk + n);
    return traits_type::to_int_type(*gptr());
  }

 private:
  const InputFile& m_file;
  std::uint64_t m_max_bytes;
  std::uint64_t m_offset = 0;
  bool m_passed_bound = false;
  char m_chunk[1 << 16];
};

// nlohmann's reason without the bytes it last read ("line 3, column 7: syntax error while parsing value -
// invalid literal"), so a message never echoes a file's contents at length.
std::string parse_problem(std::size_t position, const std::string& what) {
  const std::size_t at = what.find("parse error at ");
  if (at == std::string::npos) return "is not JSON (at byte " + std::to_string(position) + ")";
  std::string reason = what.substr(at + 15);
  reason = reason.substr(0, reason.find("; last read"));
  return "is not JSON (" + reason + ")";
}

// The SAX handler: builds the values the filter keeps, drops the rest as they are read, and stops at the
// first problem (too deep, too many values kept), which it records.
class BoundedBuilder final : public nlohmann::json_sax<json> {
 public:
  explicit BoundedBuilder(const JsonFilter& filter) : m_filter(filter) {}

  const std::string& problem() const { return m_problem; }
  json& document() { return m_document; }

  bool null() override { return scalar(json(nullptr)); }
  bool boolean(bool value) override { return scalar(json(value)); }
  bool number_integer(number_integer_t value) override { return scalar(json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return scalar(json(value)); }
  bool number_float(number_float_t value, const string_t&) override { return scalar(json(value)); }
  bool string(string_t& value) override { return scalar(json(std::move(value))); }
  bool binary(binary_t&) override { return scalar(json(nullptr)); }  // JSON text has none
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }

  bool key(string_t& name) override {
    if (m_stack.back().kept) m_stack.back().key = std::move(name);  // a dropped object's keys cost nothing
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& error) override {
    m_problem = parse_problem(position, error.what());
    return false;
  }

 private:
  struct Open {
    json value;
    bool kept;
    std::string key;         // an object's key whose value comes next
    std::size_t index = 0;   // an array's next element
    std::size_t kept_before;  // m_kept when it opened, so a taken value gives its count back
  };

  bool parent_kept() const { return m_stack.empty() || m_stack.back().kept; }

  // The next value's place in its container (pushed onto m_path) and whether it is built.
  bool enter() {
    if (m_stack.empty()) return true;
    Open& parent = m_stack.back();
    m_path.push_back(parent.value.is_array() ? std::to_string(parent.index++) : std::move(parent.key));
    return m_filter.keep(m_path);
  }

  bool count_kept() {
    if (++m_kept <= kMaxKeptJsonValues) return true;
    m_problem = "holds more than " + std::to_string(kMaxKeptJsonValues) + " values where coalesce reads it";
    return false;
  }

  // A finished value at m_path: taken by the reader, or put into its container (or made the document).
  void finish(json&& value, std::size_t kept_before) {
    if (m_stack.empty()) {
      m_document = std::move(value);
      return;
    }
    if (m_filter.take && m_filter.take(m_path, value)) {
      m_kept = kept_before;
      return;
    }
    json& parent = m_stack.back().value;
    if (parent.is_array())
      parent.push_back(std::move(value));
    else
      parent[m_path.back()] = std::move(value);
  }

  bool scalar(json&& value) {
    if (!parent_kept()) return true;
    const std::size_t kept_before = m_kept;
    const bool keep = enter();
    const bool fine = !keep || count_kept();
    if (keep && fine) finish(std::move(value), kept_before);
    if (!m_stack.empty()) m_path.pop_back();
    return fine;
  }

  bool open(json&& empty) {
    if (m_stack.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
      m_problem = "is nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
      return false;
    }
    const std::size_t kept_before = m_kept;
    const bool parent = parent_kept();
    const bool keep = parent && enter();
    if (parent && !keep) m_path.pop_back();  // a dropped value's children never ask for their place
    if (keep && !count_kept()) return false;
    m_stack.push_back(Open{keep ? std::move(empty) : json(), keep, {}, 0, kept_before});
    return true;
  }

  bool close() {
    Open done = std::move(m_stack.back());
    m_stack.pop_back();
    if (!done.kept) return true;
    finish(std::move(done.value), done.kept_before);
    if (!m_stack.empty()) m_path.pop_back();
    return true;
  }

  const JsonFilter& m_filter;
  json m_document;
  std::vector<Open> m_stack;
  JsonPath m_path;  // the place of the innermost kept value being built
  std::size_t m_kept = 0;
  std::string m_problem;
};

// Runs `parse` (a sax_parse over some input) into a builder; the document, or the source's one line.
template <typename Parse>
json build(const JsonSource& source, const JsonFilter& filter, Parse parse) {
  BoundedBuilder builder(filter);
  if (!parse(builder)) source.fail(builder.problem().empty() ? "is not JSON" : builder.problem());
  return std::move(builder.document());
}

// Finds the top-level "schema" string and stops there (json_schema_of).
class SchemaScanner final : public nlohmann::json_sax<json> {
 public:
  std::optional<std::string> schema;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool string(string_t& text) override {
    if (m_at_schema) schema = std::move(text);
    return !schema && value();
  }
  bool start_object(std::size_t) override { return enter(); }
  bool start_array(std::size_t) override { return m_depth > 0 && enter(); }
  bool end_object() override { return --m_depth, true; }
  bool end_array() override { return --m_depth, true; }
  bool key(string_t& name) override {
    m_at_schema = m_depth == 1 && name == "schema";
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool value() {
    m_at_schema = false;
    return m_depth > 0;  // a top level that is no object has no schema
  }
  bool enter() {
    m_at_schema = false;
    return ++m_depth <= kMaxJsonDepth;
  }
  int m_depth = 0;
  bool m_at_schema = false;
};

}  // namespace

void JsonSource::fail(const std::string& problem) const {
  fail(problem, fix);
}

void JsonSource::fail(const std::string& problem, const std::string& fix_of_it) const {
  throw UsageError(std::string(flag) + " '" + path + "': " + problem + (fix_of_it.empty() ? "" : " (" + fix_of_it + ")"));
}

json read_json_input(const JsonSource& source, std::uint64_t max_bytes, const JsonFilter& filter) {
  const InputFile file(source.flag, source.path);
  file.require_at_most(max_bytes);
  BoundedFileBuffer buffer(file, max_bytes);
  std::istream stream(&buffer);
  json document = build(source, filter, [&](BoundedBuilder& builder) {
    const bool parsed = json::sax_parse(stream, &builder);
    if (buffer.passed_bound()) file.refuse_larger_than(max_bytes);
    return parsed;
  });
  return document;
}

json parse_json_input(const JsonSource& source, std::string_view bytes, const JsonFilter& filter) {
  return build(source, filter,
               [&](BoundedBuilder& builder) { return json::sax_parse(bytes.begin(), bytes.end(), &builder); });
}

std::optional<SchemaVersion> parse_schema(std::string_view schema) {
  const std::size_t slash = schema.rfind('/');
  if (slash == std::string_view::npos || slash == 0) return std::nullopt;
  const std::string_view digits = schema.substr(slash + 1);
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return SchemaVersion{std::string(schema.substr(0, slash + 1)), std::stol(std::string(digits))};
}

void refuse_newer_schema(const JsonSource& source, const std::string& schema, std::string_view newest) {
  const std::optional<SchemaVersion> file = parse_schema(schema), known = parse_schema(newest);
  if (!file || !known || file->family != known->family || file->major <= known->major) return;
  source.fail("written by a newer coalesce: schema " + excerpt(schema) + ", and this one reads up to " +
                  std::string(newest),
              "read it with the coalesce that wrote it, or a newer one");
}

std::optional<std::string> json_schema_of(const std::string& path) {
  try {
    const InputFile file("", path);
    if (file.size() > kMaxReportJsonBytes) return std::nullopt;
    BoundedFileBuffer buffer(file, kMaxReportJsonBytes);
    std::istream stream(&buffer);
    SchemaScanner scanner;
    json::sax_parse(stream, &scanner);
    return scanner.schema;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable, or memory ran out: not a file coalesce can say it wrote
  }
}

std::optional<std::string> json_schema_in(std::string_view bytes) {
  try {
    SchemaScanner scanner;
    json::sax_parse(bytes.begin(), bytes.end(), &scanner);
    return scanner.schema;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace coalesce
