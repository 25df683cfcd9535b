// The tree's Morton keys, one definition for the CPU reference (sim/cpu_tree_impl.h) and the GPU build
// (kernels/tree_build.cu): 21 bits an axis of a body's cell in the bounding cube, interleaved x, y, z from
// the top, so both trees sort the same state into the same curve.
#pragma once

#include <cmath>
#include <cstdint>

#include "sim/common.h"

namespace coalesce {

inline constexpr int kMortonLevels = 21;  // 3 x 21 = 63 key bits

// The 21 low bits of v spread to every third bit.
HOST_DEVICE inline std::uint64_t spread_bits(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

// The cell index, 0 .. 2^21 - 1, of coordinate c in the cube [lo, lo + size).
HOST_DEVICE inline std::uint64_t morton_cell(double c, double lo, double size) {
  const double f = (c - lo) / size * static_cast<double>(1 << kMortonLevels);
  return static_cast<std::uint64_t>(fmin(fmax(f, 0.0), static_cast<double>((1 << kMortonLevels) - 1)));
}

// The edge of the keys' cube over a bounding box: its widest side, a little wider so the largest body lands
// inside the last cell; 1 for a box of one point.
HOST_DEVICE inline double morton_cube_size(const double* lo, const double* hi) {
  const double size = fmax(fmax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]);
  return size > 0 ? size * (1 + 1e-9) : 1.0;
}

// The key of (x, y, z) in the cube at `lo` of edge `size`.
HOST_DEVICE inline std::uint64_t morton_key(double x, double y, double z, const double* lo, double size) {
  return spread_bits(morton_cell(x, lo[0], size)) << 2 | spread_bits(morton_cell(y, lo[1], size)) << 1 |
         spread_bits(morton_cell(z, lo[2], size));
}

}  // namespace coalesce
