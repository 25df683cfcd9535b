// The tree-order experiment's facts shared by its run (lab_tree_order.cpp) and its lesson (app/lab's
// registry): the rows it makes, their names, and the bodies it walks.
#pragma once

#include <string>
#include <vector>

#include "sim/layout.h"
#include "sim/tree_settings.h"

namespace coalesce::lab {

// One row: the state's layout (fp32) and the tree's two memory orders.
struct TreeOrderCase {
  Layout layout;
  SourceOrder sources;
  TargetOrder targets;
};

// Float4 in all four orders; AoS (four scalar loads a body) in the two source orders, curve groups: the
// particle-order walk is hundreds of times the curve one's pulls, so it runs once per source order only.
inline const std::vector<TreeOrderCase>& tree_order_cases() {
  static const std::vector<TreeOrderCase> cases = {
      {Layout::Float4, SourceOrder::Curve, TargetOrder::Curve},
      {Layout::Float4, SourceOrder::Shuffled, TargetOrder::Curve},
      {Layout::Float4, SourceOrder::Curve, TargetOrder::Particle},
      {Layout::Float4, SourceOrder::Shuffled, TargetOrder::Particle},
      {Layout::AoS, SourceOrder::Curve, TargetOrder::Curve},
      {Layout::AoS, SourceOrder::Shuffled, TargetOrder::Curve},
  };
  return cases;
}

// The rows' bytes: the bodies and nodes the walk's lists load, each once per group of targets.
inline constexpr const char* kTreeOrderFormula =
    "(pp x 16 B + pn x 48 B) / 32: each body and node a group of 32 targets pulls, loaded once into its "
    "lists "
    "(pp, pn: body and node pulls over all targets; the opening tests' node reads not counted)";

// "float4, sources curve, targets particle"
inline std::string tree_order_variant(const TreeOrderCase& c) {
  return std::string(to_string(c.layout)) + ", sources " + std::string(to_string(c.sources)) + ", targets " +
         std::string(to_string(c.targets));
}

// Galaxies walked at --size side: side^2 / 64, 1,048,576 at the default 8192.
constexpr int tree_order_bodies(int side) {
  return static_cast<int>(static_cast<long long>(side) * side / 64);
}

}  // namespace coalesce::lab
