// Names of layouts, pack variants and solvers, as the CLI, the panel and the JSON spell them.
#include "sim/layout.h"

#include <cstddef>

#include "sim/table_checks.h"

namespace coalesce {
namespace {

// Compiled with -Werror=switch (sim/CMakeLists.txt): a new Layout enumerator stops the build here until it
// is listed, and the static_asserts below then demand its table row.
constexpr bool is_enumerator(int value) {
  switch (static_cast<Layout>(value)) {
    case Layout::AoS:
    case Layout::SoA:
    case Layout::Float4:
      return true;
  }
  return false;
}

constexpr bool names_and_keys_unique() {
  for (std::size_t i = 0; i < kLayoutCount; ++i)
    for (std::size_t j = i + 1; j < kLayoutCount; ++j)
      if (kLayoutTable[i].name == kLayoutTable[j].name || kLayoutTable[i].key == kLayoutTable[j].key)
        return false;
  return true;
}

constexpr bool keys_are_digits() {
  for (const LayoutInfo& row : kLayoutTable)
    if (row.key < '1' || row.key > '9') return false;
  return true;
}

static_assert(enumerator_count(is_enumerator) == kLayoutCount,
              "kLayoutTable needs exactly one row per Layout enumerator");
static_assert(rows_in_enum_order(kLayoutTable, [](const auto& row) { return row.layout; }),
              "kLayoutTable rows must follow the Layout enumerators' order");
static_assert(names_and_keys_unique(), "every layout needs its own name and viewer key");
static_assert(keys_are_digits(), "viewer keys are the digits 1-9 (their GLFW key codes are ASCII)");

}  // namespace

std::string_view to_string(Layout layout) {
  return layout_info(layout).name;
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

}  // namespace coalesce
