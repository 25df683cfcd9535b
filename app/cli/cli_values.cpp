// Strict parsers for command-line values (see cli_values.h).
#include "app/cli/cli_values.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

#include "sim/errors.h"
#include "sim/printable.h"

namespace coalesce::cli {
namespace {

// A value as the user gave it, shortened and escaped (a --camera-from file's value may be anything).
std::string quoted(std::string_view text) {
  return "'" + excerpt(text) + "'";
}

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
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
  const std::optional<std::string_view> near = nearest(text, split_choices(choices));
  return std::string(context.flag) + " must be one of " + std::string(choices) + ", got " + quoted(text) +
         (near ? try_hint(ValueContext{context.flag, *near}) : "");
}

std::string bad_list_item(const ValueContext& context, std::string_view list, std::string_view item,
                          std::string_view choices) {
  const std::optional<std::string_view> near = nearest(item, split_choices(choices));
  std::string fixed;
  if (near) {
    for (const std::string& each : split_list(context, list))
      fixed += (fixed.empty() ? "" : ",") + (each == item ? std::string(*near) : each);
  }
  return std::string(context.flag) + " must be a comma list of " + std::string(choices) + ", got " +
         quoted(item) + (list == item ? "" : " in " + quoted(list)) +
         (near ? try_hint(ValueContext{context.flag, fixed}) : "");
}

std::optional<std::string_view> nearest(std::string_view text,
                                        const std::vector<std::string_view>& candidates) {
  const std::string wanted = lower(text);
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (std::string_view candidate : candidates) {
    const std::size_t d = edit_distance(wanted, lower(candidate));
    if (!best || d < best_distance) {
      best = candidate;
      best_distance = d;
    }
  }
  // A typo or two, or a missing dash; more edits than that would be a guess.
  const std::size_t limit = std::max<std::size_t>(2, text.size() / 3);
  return best && best_distance <= limit ? best : std::nullopt;
}

std::vector<std::string_view> split_choices(std::string_view choices) {
  std::vector<std::string_view> items;
  for (std::size_t start = 0;;) {
    const std::size_t bar = choices.find('|', start);
    items.push_back(choices.substr(start, bar == std::string_view::npos ? choices.npos : bar - start));
    if (bar == std::string_view::npos) return items;
    start = bar + 1;
  }
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
