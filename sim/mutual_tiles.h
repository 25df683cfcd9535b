// The mutual all-pairs scheme's split of the pairs, shared by the CPU reference and the CUDA kernel.
// The bodies are cut into `tiles` tiles of `rect` bodies (the last one shorter). Each rectangle (I, J),
// I <= J, holds the pairs of tile I with tile J (within one tile: i < j) and is one unit of work with
// partial sums of its own, so nothing is added concurrently and a run is bitwise repeatable:
// - the pulls on tile I's bodies go to tile I's slot J + 1 (slots T + 1 .. tiles of tile T),
// - the pulls on tile J's bodies go to tile J's slot I (slots 0 .. T).
// Every tile thus has tiles + 1 slots, each written by one rectangle; a body's acceleration is its slots
// added in slot order. Memory: (tiles + 1) slots x rect x 3 per tile, about (tiles + 1) N scalars x 3.
#pragma once

#include <cmath>
#include <cstddef>

#include "sim/common.h"

namespace coalesce {

struct MutualTiles {
  int rect = 0;   // bodies per tile
  int tiles = 0;  // tiles, ceil(n / rect)
  HOST_DEVICE long long rectangles() const { return static_cast<long long>(tiles) * (tiles + 1) / 2; }
  HOST_DEVICE int slots() const { return tiles + 1; }
  std::size_t partial_scalars() const {
    return static_cast<std::size_t>(tiles) * static_cast<std::size_t>(slots()) * 3 * static_cast<std::size_t>(rect);
  }
};

// Tile T's slot k, axis a (0..2): rect scalars, one per body of the tile.
template <class Real>
HOST_DEVICE inline Real* mutual_slot(Real* partials, const MutualTiles& t, int tile, int slot, int axis) {
  return partials + ((static_cast<std::size_t>(tile) * t.slots() + slot) * 3 + axis) * t.rect;
}

// Body i's acceleration: its tile's slots added in slot order (the CPU reference and the CUDA kick alike).
template <class Real>
HOST_DEVICE inline Vec3T<Real> mutual_acceleration(const MutualTiles& t, const Real* partials, int i) {
  const int tile = i / t.rect, k = i % t.rect;
  Vec3T<Real> acc{Real(0), Real(0), Real(0)};
  for (int slot = 0; slot < t.slots(); ++slot) {
    acc.x += mutual_slot(partials, t, tile, slot, 0)[k];
    acc.y += mutual_slot(partials, t, tile, slot, 1)[k];
    acc.z += mutual_slot(partials, t, tile, slot, 2)[k];
  }
  return acc;
}

// Rectangle u's tiles: the tiles * (tiles - 1) / 2 off-diagonal rectangles first (whole tiles, the larger
// work), J-major, then the diagonal ones (I, I), so the work queue ends with the smaller units.
HOST_DEVICE inline void mutual_rectangle(const MutualTiles& t, long long u, int& i_tile, int& j_tile) {
  const long long off = static_cast<long long>(t.tiles) * (t.tiles - 1) / 2;
  if (u >= off) {
    i_tile = j_tile = static_cast<int>(u - off);
    return;
  }
  // u = J (J - 1) / 2 + I with I < J: J from the square root, then corrected for its rounding.
  long long j = static_cast<long long>((1.0 + sqrt(1.0 + 8.0 * static_cast<double>(u))) / 2.0);
  while (j * (j - 1) / 2 > u) --j;
  while ((j + 1) * j / 2 <= u) ++j;
  j_tile = static_cast<int>(j);
  i_tile = static_cast<int>(u - j * (j - 1) / 2);
}

// Tiles of `rect` bodies for n bodies, rect a multiple of `row` (the bodies one unit holds at once).
MutualTiles mutual_tiles_of_size(int n, int rect, int row);

// The tile size for `workers` units of work running at once (CUDA warps resident, CPU threads): the
// greedy in-order queue of mutual_rectangle is simulated for candidate sizes and the one that finishes
// first in pair-evaluation time is taken, at most `max_tiles` tiles (partial-sum memory grows with them).
MutualTiles choose_mutual_tiles(int n, int row, long long workers, int max_tiles);

}  // namespace coalesce
