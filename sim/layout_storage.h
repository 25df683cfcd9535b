// One state buffer, seen through its layout's view: how both backends store the particles (the CPU in host
// memory, CUDA in device memory) and how generic code reaches the view of the current layout. Host code;
// the views it hands out are host-device (sim/layout_views.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "sim/layout.h"
#include "sim/layout_views.h"

namespace coalesce {

// A state buffer of n particles in `layout`: base points to state_bytes(layout, n) bytes, 16-byte aligned.
struct StateViews {
  Layout layout;
  void* base;
  int n;
};

inline StateViews make_state_views(Layout layout, void* base, int n) {
  return {layout, base, n};
}

namespace detail {
template <class Fn, std::size_t... I>
void visit_layout(Layout layout, Fn& fn, std::index_sequence<I...>) {
  // Exactly one row matches; each row instantiates fn with its own layout as a constant.
  const bool found = ((layout == kLayoutTable[I].layout
                           ? (fn(std::integral_constant<Layout, kLayoutTable[I].layout>{}), true)
                           : false) ||
                      ...);
  (void)found;
}
}  // namespace detail

// Calls fn(std::integral_constant<Layout, L>{}) for L == layout: one template body serves every table row.
template <class Fn>
void with_layout(Layout layout, Fn&& fn) {
  detail::visit_layout(layout, fn, std::make_index_sequence<kLayoutCount>{});
}

// Calls fn(view) with the view of the state's layout over its buffer.
template <class Fn>
void with_view(const StateViews& state, Fn&& fn) {
  with_layout(state.layout,
              [&](auto layout) { fn(LayoutView<decltype(layout)::value>::over(state.base, state.n)); });
}

// Bytes a buffer needs for n particles in `layout`.
inline std::size_t state_bytes(Layout layout, int n) {
  std::size_t bytes = 0;
  with_layout(layout, [&](auto l) { bytes = LayoutView<decltype(l)::value>::bytes_for(n); });
  return bytes;
}

// Bytes a buffer needs for n particles in any layout, so that switching layouts never reallocates.
inline std::size_t max_state_bytes(int n) {
  std::size_t most = 0;
  for (Layout layout : kAllLayouts) most = std::max(most, state_bytes(layout, n));
  return most;
}

namespace detail {
// The table's record size is what the views store: checked at 1024 particles (a whole number of any
// block a blocked layout may use).
template <std::size_t... I>
constexpr bool views_match_table(std::index_sequence<I...>) {
  return ((LayoutView<kLayoutTable[I].layout>::bytes_for(1024) ==
           1024 * static_cast<std::size_t>(kLayoutTable[I].record_bytes)) &&
          ...);
}
template <std::size_t... I>
constexpr bool views_name_their_layout(std::index_sequence<I...>) {
  return ((LayoutView<kLayoutTable[I].layout>::kLayout == kLayoutTable[I].layout) && ...);
}
static_assert(views_match_table(std::make_index_sequence<kLayoutCount>{}),
              "a layout view's bytes_for(n) disagrees with its table row's record_bytes");
static_assert(views_name_their_layout(std::make_index_sequence<kLayoutCount>{}),
              "LayoutView<L>::kLayout must be L");
}  // namespace detail

}  // namespace coalesce
