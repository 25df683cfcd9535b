// One state buffer, seen through its view: how both backends store the particles (the CPU in host memory,
// CUDA in device memory) and how generic code reaches the view of the current layout and precision. The
// one dispatch over the layout x precision table is here (with_format); host code, the views it hands out
// are host-device (sim/layout_views.h).
#pragma once

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <utility>

#include "sim/layout.h"
#include "sim/layout_views.h"
#include "sim/precision.h"

namespace coalesce {

// A state buffer of n particles in `layout` and `precision`: base points to
// state_bytes(layout, precision, n) bytes, aligned for the widest vector (32 bytes).
struct StateViews {
  Layout layout;
  void* base;
  int n;
  Precision precision = Precision::Fp32;
};

inline StateViews make_state_views(Layout layout, Precision precision, void* base, int n) {
  return {layout, base, n, precision};
}
// fp32, the precision every layout had before the precision axis.
inline StateViews make_state_views(Layout layout, void* base, int n) {
  return make_state_views(layout, Precision::Fp32, base, n);
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
template <class Fn, std::size_t... I>
void visit_precision(Precision precision, Fn& fn, std::index_sequence<I...>) {
  const bool found = ((precision == kPrecisionTable[I].precision
                           ? (fn(std::integral_constant<Precision, kPrecisionTable[I].precision>{}), true)
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
// Calls fn(std::integral_constant<Precision, P>{}) for P == precision.
template <class Fn>
void with_precision(Precision precision, Fn&& fn) {
  detail::visit_precision(precision, fn, std::make_index_sequence<kPrecisionCount>{});
}
// Bytes of one scalar of `precision`: sizeof its row's RealFor.
inline std::size_t scalar_bytes(Precision precision) {
  std::size_t bytes = 0;
  with_precision(precision, [&](auto p) { bytes = sizeof(RealFor<decltype(p)::value>); });
  return bytes;
}

// Calls fn(View{}) with the view type of one cell of the layout x precision table (its members unset):
// every cell of both tables is instantiated, so a row of either without a view does not compile.
template <class Fn>
void with_format(Layout layout, Precision precision, Fn&& fn) {
  with_precision(precision, [&](auto p) {
    with_layout(layout, [&](auto l) { fn(LayoutView<decltype(l)::value, RealFor<decltype(p)::value>>{}); });
  });
}

// Calls fn(view) with the view of the state's layout and precision over its buffer.
template <class Fn>
void with_view(const StateViews& state, Fn&& fn) {
  with_format(state.layout, state.precision, [&](auto format) {
    fn(decltype(format)::over(state.base, state.n));
  });
}

// What one particle of a layout in a precision moves, from the view's sizeof: the inputs of every byte
// formula (sim/byte_counts.h).
struct LayoutBytes {
  int record = 0;         // one particle's whole stored state, as a conversion reads or writes it
  int vec3 = 0;           // position or velocity alone, as a kernel must move it
  int position_mass = 0;  // position + mass, as the force kernel loads it
  int real = 0;           // one scalar
};

namespace detail {
template <class View>
constexpr LayoutBytes bytes_of() {
  return {static_cast<int>(View::kRecordBytes), static_cast<int>(View::kVec3Bytes),
          static_cast<int>(View::kPositionMassBytes), static_cast<int>(sizeof(typename View::Scalar))};
}
template <Precision P, std::size_t... L>
constexpr LayoutBytes row_bytes(Layout layout, std::index_sequence<L...>) {
  LayoutBytes out{};
  ((layout == kLayoutTable[L].layout ? (out = bytes_of<LayoutView<kLayoutTable[L].layout, RealFor<P>>>(), 0)
                                     : 0),
   ...);
  return out;
}
template <std::size_t... P>
constexpr LayoutBytes table_bytes(Layout layout, Precision precision, std::index_sequence<P...>) {
  LayoutBytes out{};
  ((precision == kPrecisionTable[P].precision
        ? (out = row_bytes<kPrecisionTable[P].precision>(layout, std::make_index_sequence<kLayoutCount>{}), 0)
        : 0),
   ...);
  return out;
}
}  // namespace detail

// Compile-time where the arguments are (byte formulas, tests); one cell of the table.
constexpr LayoutBytes layout_bytes(Layout layout, Precision precision) {
  return detail::table_bytes(layout, precision, std::make_index_sequence<kPrecisionCount>{});
}

// Bytes a buffer needs for n particles in `layout` and `precision`.
inline std::size_t state_bytes(Layout layout, Precision precision, int n) {
  return static_cast<std::size_t>(layout_bytes(layout, precision).record) * static_cast<std::size_t>(n);
}
inline std::size_t state_bytes(Layout layout, int n) { return state_bytes(layout, Precision::Fp32, n); }

// Bytes a buffer needs for n particles in any layout of `precision`, so that switching layouts never
// reallocates.
inline std::size_t max_state_bytes(Precision precision, int n) {
  std::size_t most = 0;
  for (Layout layout : kAllLayouts) most = std::max(most, state_bytes(layout, precision, n));
  return most;
}
inline std::size_t max_state_bytes(int n) { return max_state_bytes(Precision::Fp32, n); }

namespace detail {
// Every cell's view names its layout and states bytes_for(n) as n records.
template <Precision P, std::size_t... L>
constexpr bool row_views_consistent(std::index_sequence<L...>) {
  return ((LayoutView<kLayoutTable[L].layout, RealFor<P>>::kLayout == kLayoutTable[L].layout &&
           LayoutView<kLayoutTable[L].layout, RealFor<P>>::bytes_for(1024) ==
               1024 * LayoutView<kLayoutTable[L].layout, RealFor<P>>::kRecordBytes) &&
          ...);
}
template <std::size_t... P>
constexpr bool table_views_consistent(std::index_sequence<P...>) {
  return (row_views_consistent<kPrecisionTable[P].precision>(std::make_index_sequence<kLayoutCount>{}) && ...);
}
static_assert(table_views_consistent(std::make_index_sequence<kPrecisionCount>{}),
              "every layout x precision cell needs a view naming its layout, with bytes_for(n) = n records");
}  // namespace detail

}  // namespace coalesce
