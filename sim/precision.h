// The precision axis: one row per floating-point type the state can be stored and stepped in. Names and
// the scalar type of each row live here; the layout axis is sim/layout.h, and the two meet in
// sim/layout_storage.h (with_state_view). A new precision is one row here plus its RealOf specialisation.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <utility>
#include <string_view>

namespace coalesce {

// Rows of kPrecisionTable are in this order.
enum class Precision { Fp32, Fp64 };

struct PrecisionInfo {
  Precision precision;
  std::string_view name;       // as the CLI, the panel and the JSON spell it
  std::string_view real_name;  // the C++ scalar, for formulas and the panel
};

inline constexpr PrecisionInfo kPrecisionTable[] = {
    {Precision::Fp32, "fp32", "float"},
    {Precision::Fp64, "fp64", "double"},
};
inline constexpr std::size_t kPrecisionCount = std::size(kPrecisionTable);

constexpr const PrecisionInfo& precision_info(Precision precision) {
  return kPrecisionTable[static_cast<std::size_t>(precision)];
}

// The scalar type of a table row: no primary definition, so a row without one is a compile error.
template <Precision P>
struct RealOf;
template <>
struct RealOf<Precision::Fp32> {
  using type = float;
};
template <>
struct RealOf<Precision::Fp64> {
  using type = double;
};
template <Precision P>
using RealFor = typename RealOf<P>::type;

namespace detail {
template <std::size_t... I>
constexpr bool rows_in_precision_order(std::index_sequence<I...>) {
  return ((kPrecisionTable[I].precision == static_cast<Precision>(I)) && ...);
}
static_assert(rows_in_precision_order(std::make_index_sequence<kPrecisionCount>{}),
              "kPrecisionTable rows must follow the Precision enumerators' order");
}  // namespace detail

constexpr std::array<Precision, kPrecisionCount> all_precisions() {
  std::array<Precision, kPrecisionCount> out{};
  for (std::size_t i = 0; i < kPrecisionCount; ++i) out[i] = kPrecisionTable[i].precision;
  return out;
}
inline constexpr std::array<Precision, kPrecisionCount> kAllPrecisions = all_precisions();

inline constexpr std::string_view kPrecisionChoices = "fp32|fp64";  // checked against the table below

constexpr std::string_view to_string(Precision precision) { return precision_info(precision).name; }
constexpr std::optional<Precision> parse_precision(std::string_view text) {
  for (const PrecisionInfo& row : kPrecisionTable)
    if (row.name == text) return row.precision;
  return std::nullopt;
}

namespace detail {
constexpr bool choices_list_the_table() {
  std::size_t at = 0;
  for (std::size_t r = 0; r < kPrecisionCount; ++r) {
    if (r > 0 && (at >= kPrecisionChoices.size() || kPrecisionChoices[at++] != '|')) return false;
    if (kPrecisionChoices.substr(at, kPrecisionTable[r].name.size()) != kPrecisionTable[r].name) return false;
    at += kPrecisionTable[r].name.size();
  }
  return at == kPrecisionChoices.size();
}
static_assert(choices_list_the_table(), "kPrecisionChoices must list kPrecisionTable's names in order");
}  // namespace detail

}  // namespace coalesce
