// What the tree's build writes and its walk reads, per node, in the state's precision (kernels/tree.h).
#pragma once

#include "sim/common.h"

namespace coalesce::gpu {

// One node as the walk sees it: centre of mass and mass, the traceless quadrupole (xx, yy, zz, xy | xz, yz)
// and the extent, three vectors so the walk moves each with one load.
template <class Real>
struct WalkNode {
  Vec4T<Real> com_mass;
  Vec4T<Real> quad_a;  // xx, yy, zz, xy
  Vec4T<Real> quad_b;  // xz, yz, extent, 0
};

// The binary tree's ids: internal nodes 0 .. n-2 (the root is 0), then the leaf of curve position k at
// n - 1 + k; with one body the root is that body's leaf, id 0 too.
constexpr int kRootNode = 0;
// Common prefix bits from which two keys are equal: the index tie-break's bits start here, and such a node
// is one octree leaf (the CPU stops at 21 levels).
constexpr int kEqualKeyBits = 63;

}  // namespace coalesce::gpu
