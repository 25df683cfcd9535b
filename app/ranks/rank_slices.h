// Which bodies each rank steps: contiguous slices in rank order, as even as a 64-body grid allows.
#pragma once

#include <vector>

namespace coalesce {

// Slice boundaries fall on multiples of this (the CPU backend's SIMD block, sim/cpu_simd.h kSimdBlock), so
// no rank computes a block that another computes too.
inline constexpr int kSliceGrain = 64;

struct RankSlices {
  std::vector<int> first;  // rank r steps bodies [first[r], first[r] + count[r])
  std::vector<int> count;
  int begin(int rank) const { return first[static_cast<std::size_t>(rank)]; }
  int end(int rank) const { return begin(rank) + count[static_cast<std::size_t>(rank)]; }
};

// n bodies over `ranks`: rank r from the grid point nearest r * n / ranks. A rank may be empty when n is
// below ranks x kSliceGrain.
inline RankSlices slice_bodies(int n, int ranks) {
  RankSlices s;
  int previous = 0;
  for (int r = 0; r < ranks; ++r) {
    const long long ideal = static_cast<long long>(n) * (r + 1) / ranks;
    long long next = (ideal + kSliceGrain / 2) / kSliceGrain * kSliceGrain;
    if (r == ranks - 1 || next > n) next = n;
    if (next < previous) next = previous;
    s.first.push_back(previous);
    s.count.push_back(static_cast<int>(next) - previous);
    previous = static_cast<int>(next);
  }
  return s;
}

}  // namespace coalesce
