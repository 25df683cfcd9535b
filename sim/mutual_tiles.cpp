#include "sim/mutual_tiles.h"

#include <algorithm>
#include <climits>
#include <functional>
#include <queue>
#include <vector>

namespace coalesce {

MutualTiles mutual_tiles_of_size(int n, int rect, int row) {
  MutualTiles t;
  if (n <= 0) return t;
  // In 64 bits: N and rect near INT_MAX must not wrap into one-row tiles (a search of 10^14 rectangles).
  const long long r = std::max(row, 1);
  const auto round_up = [r](long long v) { return (v + r - 1) / r * r; };
  // One tile never outgrows n, nor int.
  t.rect = static_cast<int>(
      std::min({std::max(r, round_up(rect)), round_up(n), static_cast<long long>(INT_MAX) / r * r}));
  t.tiles = static_cast<int>((static_cast<long long>(n) + t.rect - 1) / t.rect);
  return t;
}

namespace {

// Pair evaluations of rectangle u (the diagonal ones evaluate their rows' own blocks one-sided: counted
// as half, which is what they cost within a few per cent).
double rectangle_cost(const MutualTiles& t, int n, long long u) {
  int i = 0, j = 0;
  mutual_rectangle(t, u, i, j);
  const auto length = [&](int tile) { return static_cast<double>(std::min(t.rect, n - tile * t.rect)); };
  return i == j ? length(i) * length(i) / 2.0 : length(i) * length(j);
}

// When the last of `workers` takes its last rectangle off the in-order queue and finishes it.
double queue_finish(const MutualTiles& t, int n, long long workers) {
  std::priority_queue<double, std::vector<double>, std::greater<double>> free_at;
  const long long units = t.rectangles();
  for (long long w = 0; w < std::min(workers, units); ++w) free_at.push(0.0);
  double finish = 0.0;
  for (long long u = 0; u < units; ++u) {
    const double start = free_at.top();
    free_at.pop();
    const double end = start + rectangle_cost(t, n, u);
    finish = std::max(finish, end);
    free_at.push(end);
  }
  return finish;
}

}  // namespace

MutualTiles choose_mutual_tiles(int n, int row, long long workers, int max_tiles) {
  MutualTiles best = mutual_tiles_of_size(n, n, row);
  if (n <= 0) return best;
  double best_finish = queue_finish(best, n, workers);
  // Candidate sizes: every multiple of `row` that gives 2 .. max_tiles tiles (distinct tile counts only).
  int last_tiles = best.tiles;
  for (int rect = best.rect - row; rect >= row; rect -= row) {
    const MutualTiles t = mutual_tiles_of_size(n, rect, row);
    if (t.tiles > max_tiles) break;
    if (t.tiles == last_tiles) continue;
    last_tiles = t.tiles;
    const double finish = queue_finish(t, n, workers);
    if (finish < best_finish * 0.999) {  // a smaller tile only for a real gain: fewer slots to add
      best = t;
      best_finish = finish;
    }
  }
  return best;
}

}  // namespace coalesce
