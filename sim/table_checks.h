// The compile-time checks every enum-keyed table shares (sim/layout.cpp, sim/force_method.cpp): how many
// enumerators a switch built with -Werror=switch lists, and whether the rows follow the enum's order.
#pragma once

#include <cstddef>
#include <iterator>

namespace coalesce {

// `is_enumerator(value)` is the table file's switch over every enumerator: true for each one listed.
template <class IsEnumerator>
constexpr std::size_t enumerator_count(IsEnumerator is_enumerator) {
  std::size_t count = 0;
  while (is_enumerator(static_cast<int>(count))) ++count;
  return count;
}

// Row i is enumerator i, read by `key(row)`.
template <class Table, class Key>
constexpr bool rows_in_enum_order(const Table& table, Key key) {
  for (std::size_t i = 0; i < std::size(table); ++i)
    if (static_cast<std::size_t>(key(table[i])) != i) return false;
  return true;
}

}  // namespace coalesce
