// Strict parsers for command-line values (see cli_values.h).
#include "app/cli/cli_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

#include "sim/errors.h"

namespace coalesce::cli {
namespace {

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

std::string try_hint(const ValueContext& context) {
  return " (try " + std::string(context.flag) + " " + std::string(context.example) + ")";
}

[[noreturn]] void fail(const ValueContext& context, std::string_view wanted, std::string_view text) {
  throw UsageError(std::string(context.flag) + " must be " + std::string(wanted) + ", got " + quoted(text) +
                   try_hint(context));
}

template <class Range>
double parse_in(const ValueContext& context, std::string_view text, const Range& range) {
  const std::string wanted = describe(range);
  double value = 0.0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc() && ptr == end && std::isfinite(value) && !range.contains(value))) {
    throw UsageError(std::string(context.flag) + " " + std::string(text) + " is out of range; expected " +
                     wanted + try_hint(context));
  }
  if (ec != std::errc() || ptr != end || text.empty() || !std::isfinite(value)) fail(context, wanted, text);
  return value;
}

}  // namespace

std::int64_t parse_integer(const ValueContext& context, std::string_view text, std::int64_t lo,
                           std::int64_t hi, std::string_view note) {
  const std::string wanted = describe_integers(lo, hi) + (note.empty() ? "" : " (" + std::string(note) + ")");
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  // Too large or too small is said as such, so "99999999999999999999" does not read as "not a number".
  if (ec == std::errc::result_out_of_range ||
      (ec == std::errc() && ptr == end && (value < lo || value > hi))) {
    const bool large = ec == std::errc::result_out_of_range ? text[0] != '-' : value > hi;
    throw UsageError(std::string(context.flag) + " " + std::string(text) + " is too " +
                     (large ? "large" : "small") + "; expected " + wanted + try_hint(context));
  }
  if (ec != std::errc() || ptr != end || text.empty()) fail(context, wanted, text);
  return value;
}

std::uint64_t parse_unsigned64(const ValueContext& context, std::string_view text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty()) {
    fail(context, "an integer from 0 to 18446744073709551615", text);
  }
  return value;
}

float parse_float(const ValueContext& context, std::string_view text, const FloatRange& range) {
  return static_cast<float>(parse_double(context, text, range));
}

double parse_double(const ValueContext& context, std::string_view text, const FloatRange& range) {
  return parse_in(context, text, range);
}

double parse_double(const ValueContext& context, std::string_view text, const DoubleRange& range) {
  return parse_in(context, text, range);
}

std::vector<std::string> split_list(const ValueContext& context, std::string_view text) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item =
        text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty()) fail(context, "a comma-separated list with no empty items", text);
    items.emplace_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

std::string bad_choice(const ValueContext& context, std::string_view text, std::string_view choices) {
  return std::string(context.flag) + " must be one of " + std::string(choices) + ", got " + quoted(text) +
         try_hint(context);
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace coalesce::cli
