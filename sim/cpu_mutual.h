// The mutual all-pairs scheme on the CPU, the reference for the CUDA kernel: each unordered pair once
// (sim/physics.h accumulate_mutual_pair), split into the rectangles of sim/mutual_tiles.h so that any
// number of threads, and every layout, gives the same bits.
#pragma once

#include <algorithm>

#include "sim/layout_views.h"
#include "sim/mutual_tiles.h"
#include "sim/physics.h"

namespace coalesce::cpu {

// Rectangle u's pulls into its two slots (written whole: the tile I slot with the i-side sums, the tile J
// slot with the j-side ones). Within tile I == J only the pairs i < j.
template <class View>
void mutual_rectangle_sums(const View& view, const MutualTiles& t, long long u,
                           typename View::Scalar softening_squared, typename View::Scalar* partials) {
  using Real = typename View::Scalar;
  int i_tile = 0, j_tile = 0;
  mutual_rectangle(t, u, i_tile, j_tile);
  const int i_first = i_tile * t.rect, i_end = std::min(view.n, i_first + t.rect);
  const int j_first = j_tile * t.rect, j_end = std::min(view.n, j_first + t.rect);
  Real* jx = mutual_slot(partials, t, j_tile, i_tile, 0);
  Real* jy = mutual_slot(partials, t, j_tile, i_tile, 1);
  Real* jz = mutual_slot(partials, t, j_tile, i_tile, 2);
  std::fill(jx, jx + t.rect, Real(0));
  std::fill(jy, jy + t.rect, Real(0));
  std::fill(jz, jz + t.rect, Real(0));
  for (int i = i_first; i < i_end; ++i) {
    const Vec4T<Real> pi = view.position_mass(i);
    const Vec3T<Real> ri{pi.x, pi.y, pi.z};
    Vec3T<Real> acc{Real(0), Real(0), Real(0)};
    for (int j = i_tile == j_tile ? i + 1 : j_first; j < j_end; ++j) {
      const Vec4T<Real> pj = view.position_mass(j);
      const int k = j - j_first;
      Vec3T<Real> acc_j{jx[k], jy[k], jz[k]};
      accumulate_mutual_pair(acc, acc_j, ri, pi.w, Vec3T<Real>{pj.x, pj.y, pj.z}, pj.w, softening_squared);
      jx[k] = acc_j.x;
      jy[k] = acc_j.y;
      jz[k] = acc_j.z;
    }
    const int k = i - i_first;
    mutual_slot(partials, t, i_tile, j_tile + 1, 0)[k] = acc.x;
    mutual_slot(partials, t, i_tile, j_tile + 1, 1)[k] = acc.y;
    mutual_slot(partials, t, i_tile, j_tile + 1, 2)[k] = acc.z;
  }
}

}  // namespace coalesce::cpu
