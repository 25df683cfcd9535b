// The particle layouts as one table (name, viewer key, colour), the pack (transpose) variants and the
// solvers. The number of layouts, the CLI choices and the viewer keys all come from kLayoutTable; a new
// layout is one row here plus its view in sim/layout_views.h, which states its bytes by sizeof
// (docs/architecture.md, "Two axes"). Precision is the other axis (sim/precision.h).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace coalesce {

// Rows of kLayoutTable are in this order; sim/layout.cpp stops the build if one is missing.
enum class Layout { AoS, SoA, Float4 };

struct LayoutInfo {
  Layout layout;
  std::string_view name;    // as the CLI, the panel and the JSON spell it
  char key;                 // the viewer key that switches to it (a digit: GLFW key codes are ASCII)
  unsigned colour;          // 0xRRGGBB, the layout's colour wherever a chart tells layouts apart (bench --plot)
};

// float4 is the vector layout: float4 in fp32, double4_32a in fp64 (sim/layout_views.h).
// Colours: Okabe-Ito orange, blue and bluish green, told apart with any colour vision.
inline constexpr LayoutInfo kLayoutTable[] = {
    {Layout::AoS, "aos", '1', 0xE69F00},
    {Layout::SoA, "soa", '2', 0x0072B2},
    {Layout::Float4, "float4", '3', 0x009E73},
};
inline constexpr std::size_t kLayoutCount = std::size(kLayoutTable);

constexpr const LayoutInfo& layout_info(Layout layout) {
  return kLayoutTable[static_cast<std::size_t>(layout)];
}

namespace detail {
constexpr std::array<Layout, kLayoutCount> all_layouts() {
  std::array<Layout, kLayoutCount> out{};
  for (std::size_t i = 0; i < kLayoutCount; ++i) out[i] = kLayoutTable[i].layout;
  return out;
}

// The rows' names (or keys) joined by Sep..., built at compile time so option tables can hold a string_view.
template <bool kKeys, char... Sep>
struct JoinedLayouts {
  static constexpr std::size_t item_size(const LayoutInfo& row) { return kKeys ? 1 : row.name.size(); }
  static constexpr std::size_t size() {
    std::size_t n = (kLayoutCount - 1) * sizeof...(Sep);
    for (const LayoutInfo& row : kLayoutTable) n += item_size(row);
    return n;
  }
  static constexpr std::array<char, size()> make() {
    std::array<char, size()> out{};
    constexpr char separator[] = {Sep..., '\0'};
    std::size_t at = 0;
    for (std::size_t r = 0; r < kLayoutCount; ++r) {
      if (r > 0)
        for (std::size_t s = 0; s < sizeof...(Sep); ++s) out[at++] = separator[s];
      if (kKeys) out[at++] = kLayoutTable[r].key;
      for (std::size_t c = 0; !kKeys && c < kLayoutTable[r].name.size(); ++c)
        out[at++] = kLayoutTable[r].name[c];
    }
    return out;
  }
  static constexpr std::array<char, size()> text = make();
  static constexpr std::string_view view() { return {text.data(), text.size()}; }
};
}  // namespace detail

inline constexpr std::array<Layout, kLayoutCount> kAllLayouts = detail::all_layouts();
inline constexpr std::string_view kLayoutChoices =
    detail::JoinedLayouts<false, '|'>::view();                                              // aos|soa|float4
inline constexpr std::string_view kLayoutList = detail::JoinedLayouts<false, ','>::view();  // aos,soa,float4
inline constexpr std::string_view kLayoutNames =
    detail::JoinedLayouts<false, ',', ' '>::view();                                        // aos, soa, float4
inline constexpr std::string_view kLayoutKeys = detail::JoinedLayouts<true, '/'>::view();  // 1/2/3

// The layout the viewer key `key` selects, if any.
constexpr std::optional<Layout> layout_for_key(char key) {
  for (const LayoutInfo& row : kLayoutTable)
    if (row.key == key) return row.layout;
  return std::nullopt;
}

enum class PackVariant { Naive, Tiled, TiledPadded, Vector };
constexpr std::array<PackVariant, 4> kAllPackVariants = {PackVariant::Naive, PackVariant::Tiled,
                                                         PackVariant::TiledPadded, PackVariant::Vector};

// CLI spellings: the table's layout names, naive|tiled|tiled-padded|vector (force methods:
// sim/force_method.h).
std::string_view to_string(Layout layout);
std::string_view to_string(PackVariant variant);
std::optional<Layout> parse_layout(std::string_view text);
std::optional<PackVariant> parse_pack_variant(std::string_view text);

}  // namespace coalesce
