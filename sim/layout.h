// The three memory layouts of the particle state, their names, and the pack (transpose) variants.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace coalesce {

enum class Layout { AoS, SoA, Float4 };
constexpr std::array<Layout, 3> kAllLayouts = {Layout::AoS, Layout::SoA, Layout::Float4};

enum class PackVariant { Naive, Tiled, TiledPadded, Vector };
constexpr std::array<PackVariant, 4> kAllPackVariants = {PackVariant::Naive, PackVariant::Tiled,
                                                         PackVariant::TiledPadded, PackVariant::Vector};

enum class Solver { AllPairs, Attractors };

// CLI spellings: aos|soa|float4, naive|tiled|tiled-padded|vector, all-pairs|attractors.
std::string_view to_string(Layout layout);
std::string_view to_string(PackVariant variant);
std::string_view to_string(Solver solver);
std::optional<Layout> parse_layout(std::string_view text);
std::optional<PackVariant> parse_pack_variant(std::string_view text);
std::optional<Solver> parse_solver(std::string_view text);

}  // namespace coalesce
