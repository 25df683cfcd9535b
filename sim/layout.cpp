// Names of layouts, pack variants and solvers, as the CLI, the panel and the JSON spell them.
#include "sim/layout.h"

namespace coalesce {

std::string_view to_string(Layout layout) {
  switch (layout) {
    case Layout::AoS: return "aos";
    case Layout::SoA: return "soa";
    case Layout::Float4: return "float4";
  }
  return "?";
}

std::string_view to_string(PackVariant variant) {
  switch (variant) {
    case PackVariant::Naive: return "naive";
    case PackVariant::Tiled: return "tiled";
    case PackVariant::TiledPadded: return "tiled-padded";
    case PackVariant::Vector: return "vector";
  }
  return "?";
}

std::string_view to_string(Solver solver) {
  return solver == Solver::AllPairs ? "all-pairs" : "attractors";
}

std::optional<Layout> parse_layout(std::string_view text) {
  for (Layout l : kAllLayouts)
    if (to_string(l) == text) return l;
  return std::nullopt;
}

std::optional<PackVariant> parse_pack_variant(std::string_view text) {
  for (PackVariant v : kAllPackVariants)
    if (to_string(v) == text) return v;
  return std::nullopt;
}

std::optional<Solver> parse_solver(std::string_view text) {
  if (text == "all-pairs") return Solver::AllPairs;
  if (text == "attractors") return Solver::Attractors;
  return std::nullopt;
}

}  // namespace coalesce
