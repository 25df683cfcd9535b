// Strict parsers for command-line values: the whole text must parse, in range, or a UsageError names the
// flag, the text given and an example of a good value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/limits.h"

namespace coalesce::cli {

// What the parsers need to word an error: "--particles must be a positive integer, got 'abc' (try ...)".
struct ValueContext {
  std::string_view flag;     // "--particles"
  std::string_view example;  // "65536", used as "(try --particles 65536)"
};

// An integer in [lo, hi]; errors state the range, then `note` if given ("0 draws all").
std::int64_t parse_integer(const ValueContext& context, std::string_view text, std::int64_t lo,
                           std::int64_t hi, std::string_view note = "");
std::uint64_t parse_unsigned64(const ValueContext& context, std::string_view text);

// A float in `range`; errors state the range.
float parse_float(const ValueContext& context, std::string_view text, const FloatRange& range);
// The same check, the value kept as the double the text says (camera angles, which must read back exactly).
double parse_double(const ValueContext& context, std::string_view text, const FloatRange& range);
// A double in a range of doubles (dt, softening): the value as typed, judged as typed.
double parse_double(const ValueContext& context, std::string_view text, const DoubleRange& range);

// Comma-separated items, none empty ("a,b,c"); throws for "", "a,,b" or a trailing comma.
std::vector<std::string> split_list(const ValueContext& context, std::string_view text);

// The UsageError text for `text`, which is none of `choices` ("fp32|fp64"): the choices, and the nearest of
// them as the fix ("(try --precision fp32)" for 'Fp32'), none when nothing is near.
std::string bad_choice(const ValueContext& context, std::string_view text, std::string_view choices);
// The same for `item` of the comma list `list`: the fix is the list with that item replaced.
std::string bad_list_item(const ValueContext& context, std::string_view list, std::string_view item,
                          std::string_view choices);

// Of `candidates`, the one `text` most likely meant: the same letters in another case first, then the fewest
// edits, ignoring case, when few enough to be a typo; none otherwise. Every suggestion comes from here.
std::optional<std::string_view> nearest(std::string_view text,
                                        const std::vector<std::string_view>& candidates);
// "a|b|c" -> {"a", "b", "c"}.
std::vector<std::string_view> split_choices(std::string_view choices);

// Levenshtein distance, for "did you mean" suggestions.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace coalesce::cli
