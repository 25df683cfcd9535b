// How the all-pairs solver evaluates its pairs: one-sided (every ordered pair, each body summing its own
// pulls; a K-rank run can split the bodies) or mutual (each unordered pair once, the result given to both
// bodies with opposite signs: about 16 FP32 instructions for two interactions instead of 24).
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace coalesce {

enum class ForceScheme { OneSided, Mutual };

struct ForceSchemeInfo {
  ForceScheme scheme;
  std::string_view name;  // CLI and JSON spelling
};

inline constexpr std::array<ForceSchemeInfo, 2> kForceSchemeTable{{
    {ForceScheme::OneSided, "one-sided"},
    {ForceScheme::Mutual, "mutual"},
}};

// --forces takes a scheme or auto: measured at the start (app/services/force_choice.h says how).
inline constexpr std::string_view kForceChoices = "one-sided|mutual|auto";

constexpr std::string_view to_string(ForceScheme scheme) {
  for (const ForceSchemeInfo& row : kForceSchemeTable)
    if (row.scheme == scheme) return row.name;
  return "?";
}

constexpr std::optional<ForceScheme> parse_force_scheme(std::string_view text) {
  for (const ForceSchemeInfo& row : kForceSchemeTable)
    if (row.name == text) return row.scheme;
  return std::nullopt;
}

}  // namespace coalesce
