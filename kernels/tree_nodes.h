// What the tree's build writes and its walk reads, per node, in the state's precision (kernels/tree.h).
#pragma once

#include "sim/common.h"

namespace coalesce::gpu {

// One node as the walk sees it, three vectors so the walk moves each with one load: the opening test reads
// the first alone (centre of mass and extent), a pull all three (the traceless quadrupole and the mass).
template <class Real>
struct WalkNode {
  Vec4T<Real> com_extent;  // x, y, z, extent
  Vec4T<Real> quad_a;      // xx, yy, zz, xy
  Vec4T<Real> quad_b;      // xz, yz, mass, 0
};

// What the walk needs to open an internal node, precomputed once per build so that opening is one 32-byte
// read rather than a chain of dependent reads down the binary tree: either its octree children (ids >= 0,
// in curve order, the rest -1) or, for a node taken body by body, kid[0] = ~first curve position and
// kid[1] = its body count.
struct alignas(16) OctreeKids {
  int kid[8];
};

// The binary tree's ids: internal nodes 0 .. n-2 (the root is 0), then the leaf of curve position k at
// n - 1 + k; with one body the root is that body's leaf, id 0 too.
constexpr int kRootNode = 0;
// Common prefix bits from which two keys are equal: the index tie-break's bits start here, and such a node
// is one octree leaf (the CPU stops at 21 levels).
constexpr int kEqualKeyBits = 63;

}  // namespace coalesce::gpu
