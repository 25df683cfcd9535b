// Mutual all-pairs kick: each unordered pair evaluated once (sim/physics.h accumulate_mutual_pair), the
// pairs split into the rectangles of sim/mutual_tiles.h, one warp per rectangle (one warp per block, so the
// block scheduler hands out rectangles as warps finish; the schedule is simulated on the host to pick the
// tile size). In a rectangle (I, J) the warp holds kRow bodies of tile I in registers (kIBodies per lane,
// their sums in registers across all of J) and walks J in tiles of kCol bodies (kJBodies per lane): for 32
// steps every lane evaluates its i-bodies against the j-bodies it holds, then the j-bodies and their sums
// move one lane down by shuffle, so after the 32 steps each j-body has met all kRow i-bodies and its sum
// is the warp's, with no shared memory, no atomics and a fixed order: a run is bitwise repeatable and the
// layouts agree. Within tile I's own rows (the diagonal rectangle) a row's block with itself is evaluated
// one-sided, i-side only. A second kernel adds a body's slots in slot order and applies the kick.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <type_traits>

#include "kernels/cuda_check.h"
#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"
#include "sim/mutual_tiles.h"

namespace coalesce::gpu {

namespace {

constexpr unsigned kFullWarp = 0xffffffffu;
constexpr int kWarp = 32;

// Bodies per lane: kIBodies i-bodies (7 registers each) and kJBodies j-bodies (7 each, moving). Per step a
// lane evaluates kIBodies x kJBodies pairs for 7 x kJBodies shuffles. Configurable for measurements.
#if !defined(COALESCE_MUTUAL_I_BODIES) || !defined(COALESCE_MUTUAL_J_BODIES) || !defined(COALESCE_MUTUAL_MIN_BLOCKS)
#error "the mutual kernel's shape is set in kernels/CMakeLists.txt"
#endif
template <class Real>
struct MutualShape {
  // fp64 holds half as many i-bodies: twice the registers each.
  static constexpr int kIBodies = sizeof(Real) == 4 ? COALESCE_MUTUAL_I_BODIES : COALESCE_MUTUAL_I_BODIES / 2;
  static constexpr int kJBodies = COALESCE_MUTUAL_J_BODIES;
  static constexpr int kRow = kWarp * kIBodies;  // i-bodies a warp holds
  static constexpr int kCol = kWarp * kJBodies;  // j-bodies a lane set holds
  static_assert(kIBodies % kJBodies == 0, "a row is whole j tiles");
};
constexpr int kMinBlocksPerSm = COALESCE_MUTUAL_MIN_BLOCKS;  // one warp each

// Body `index` of the range [first, end) or, past its end, a body of mass 0 (which adds exactly 0 to
// every sum it meets) at a real body's position (so r^2 stays finite).
template <class View>
__device__ inline Vec4T<typename View::Scalar> body_or_massless(const View& view, int index, int end) {
  using Real = typename View::Scalar;
  if (index < end) return view.position_mass(index);
  Vec4T<Real> p = view.position_mass(end - 1);
  p.w = Real(0);
  return p;
}

// A lane's kB bodies from `first` on, a warp apart (lane + 32 b), massless past `end`.
template <int kB, class View>
__device__ inline void load_lane_bodies(const View& view, int first, int end, Vec3T<typename View::Scalar> (&r)[kB],
                                        typename View::Scalar (&m)[kB]) {
#pragma unroll
  for (int b = 0; b < kB; ++b) {
    const Vec4T<typename View::Scalar> p = body_or_massless(view, first + b * kWarp + static_cast<int>(threadIdx.x), end);
    r[b] = {p.x, p.y, p.z};
    m[b] = p.w;
  }
}

// The value of the next lane: each call moves every lane's value one lane down.
template <class Real>
__device__ inline Real rotate(Real value) {
  return __shfl_sync(kFullWarp, value, (threadIdx.x + 1) & (kWarp - 1));
}
template <class Real>
__device__ inline Vec3T<Real> rotate(Vec3T<Real> v) {
  return {rotate(v.x), rotate(v.y), rotate(v.z)};
}

// One step: every i-body of this lane against every j-body it holds.
template <int kI, int kJ, class Real>
__device__ __forceinline__ void evaluate_mutual(Vec3T<Real> (&acc_i)[kI], Vec3T<Real> (&acc_j)[kJ],
                                                const Vec3T<Real> (&ri)[kI], const Real (&mi)[kI],
                                                const Vec3T<Real> (&rj)[kJ], const Real (&mj)[kJ], Real eps2) {
#pragma unroll
  for (int bj = 0; bj < kJ; ++bj)
#pragma unroll
    for (int bi = 0; bi < kI; ++bi) accumulate_mutual_pair(acc_i[bi], acc_j[bj], ri[bi], mi[bi], rj[bj], mj[bj], eps2);
}

template <class View>
__global__ void __launch_bounds__(kWarp, kMinBlocksPerSm)
    mutual_partials_kernel(View view, typename View::Scalar eps2, MutualTiles t, typename View::Scalar* partials) {
  using Real = typename View::Scalar;
  using Shape = MutualShape<Real>;
  constexpr int kI = Shape::kIBodies, kJ = Shape::kJBodies;
  const int lane = static_cast<int>(threadIdx.x);
  int i_tile = 0, j_tile = 0;
  mutual_rectangle(t, blockIdx.x, i_tile, j_tile);
  const int n = view.n;
  const int i_first = i_tile * t.rect, i_end = min(n, i_first + t.rect);
  const int j_first = j_tile * t.rect, j_end = min(n, j_first + t.rect);
  Real* jsum[3];
  Real* isum[3];
  for (int a = 0; a < 3; ++a) {
    jsum[a] = mutual_slot(partials, t, j_tile, i_tile, a);
    isum[a] = mutual_slot(partials, t, i_tile, j_tile + 1, a);
  }
  // Element e of the j slot is only ever touched by lane (e + 1) % 32, the lane its sum comes home to
  // after 31 moves, so zeroing, reading and adding stay within one thread.
  const int home_offset = (lane + kWarp - 1) & (kWarp - 1);
  for (int base = 0; base < t.rect; base += kWarp)
    for (int a = 0; a < 3; ++a) jsum[a][base + home_offset] = Real(0);

  for (int row = i_first; row < i_end; row += Shape::kRow) {
    Vec3T<Real> ri[kI], acc_i[kI] = {};
    Real mi[kI];
    load_lane_bodies(view, row, i_end, ri, mi);
    // The diagonal rectangle: the row's own block one-sided (i-side only), then the rest of the tile after it.
    int col = j_first;
    if (i_tile == j_tile) {
      for (col = row; col < min(row + Shape::kRow, j_end); col += Shape::kCol) {
        Vec3T<Real> rj[kJ];
        Real mj[kJ];
        load_lane_bodies(view, col, j_end, rj, mj);
        for (int step = 0; step < kWarp; ++step) {
#pragma unroll
          for (int bj = 0; bj < kJ; ++bj)
#pragma unroll
            for (int bi = 0; bi < kI; ++bi) accumulate_pair(acc_i[bi], ri[bi], rj[bj], mj[bj], eps2);
#pragma unroll
          for (int bj = 0; bj < kJ; ++bj) {
            rj[bj] = rotate(rj[bj]);
            mj[bj] = rotate(mj[bj]);
          }
        }
      }
      col = row + Shape::kRow;
    }
    for (; col < j_end; col += Shape::kCol) {
      Vec3T<Real> rj[kJ], acc_j[kJ] = {};
      Real mj[kJ];
      load_lane_bodies(view, col, j_end, rj, mj);
      // 31 moves bring each sum to the lane after its home lane; the 32nd evaluation needs no move after it.
      for (int step = 0; step < kWarp - 1; ++step) {
        evaluate_mutual<kI, kJ>(acc_i, acc_j, ri, mi, rj, mj, eps2);
#pragma unroll
        for (int bj = 0; bj < kJ; ++bj) {
          rj[bj] = rotate(rj[bj]);
          mj[bj] = rotate(mj[bj]);
          acc_j[bj] = rotate(acc_j[bj]);
        }
      }
      evaluate_mutual<kI, kJ>(acc_i, acc_j, ri, mi, rj, mj, eps2);
      // After 31 moves lane l holds the j-bodies lane l - 1 loaded.
#pragma unroll
      for (int b = 0; b < kJ; ++b) {
        const int e = col - j_first + b * kWarp + home_offset;
        jsum[0][e] += acc_j[b].x;
        jsum[1][e] += acc_j[b].y;
        jsum[2][e] += acc_j[b].z;
      }
    }
#pragma unroll
    for (int b = 0; b < kI; ++b) {
      const int e = row - i_first + b * kWarp + lane;
      isum[0][e] = acc_i[b].x;
      isum[1][e] = acc_i[b].y;
      isum[2][e] = acc_i[b].z;
    }
  }
}

// One thread per body: its tile's slots in slot order, then v += a dt.
template <class View>
__global__ void __launch_bounds__(256)
    mutual_kick_kernel(View view, MutualTiles t, const typename View::Scalar* partials, typename View::Scalar dt) {
  using Real = typename View::Scalar;
  const long long index = global_thread_index();
  if (index >= view.n) return;
  const int i = static_cast<int>(index);
  view.set_velocity(i, kick(view.velocity(i), mutual_acceleration(t, partials, i), dt));
}

// Partial sums may take a quarter of the free device memory, and never less than 2 GiB: the tile count is
// capped by it. A fixed 2 GiB left 4M bodies 41 tiles, 861 rectangles for an H200's 1,056 resident warps
// (2.36e12 interactions/s against 3.08e12 at 1M, docs/perf.md "Issue 24").
constexpr double kMinPartialBytes = 2.0 * (1 << 30);
constexpr double kPartialShareOfFree = 0.25;
constexpr int kMaxTiles = 128;

template <class View>
MutualSchedule make_mutual_schedule(int n, std::optional<std::size_t> free_now) {
  using Real = typename View::Scalar;
  int device = 0, sms = 0, per_sm = 0;
  COALESCE_CUDA_CHECK(cudaGetDevice(&device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  COALESCE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mutual_partials_kernel<View>, kWarp, 0));
  std::size_t free_bytes = 0, total_bytes = 0;
  if (free_now)
    free_bytes = *free_now;
  else
    COALESCE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double max_partial_bytes = std::max(kMinPartialBytes, kPartialShareOfFree * static_cast<double>(free_bytes));
  // (tiles + 1) x N x 3 scalars, about: the tile cap that keeps the partial sums under max_partial_bytes.
  const double per_tile = 3.0 * sizeof(Real) * n;
  const int memory_tiles = static_cast<int>(std::max(1.0, max_partial_bytes / per_tile - 1.0));
  MutualSchedule s{};
  s.tiles = choose_mutual_tiles(n, MutualShape<Real>::kRow, static_cast<long long>(sms) * std::max(per_sm, 1),
                                std::min(kMaxTiles, memory_tiles));
  s.partial_bytes = s.tiles.partial_scalars() * sizeof(Real);
  return s;
}

}  // namespace

MutualSchedule mutual_schedule(const StateViews& state, std::optional<std::size_t> free_bytes) {
  MutualSchedule schedule{};
  with_view(state, [&](const auto& view) {
    if (view.n > 0) schedule = make_mutual_schedule<std::decay_t<decltype(view)>>(view.n, free_bytes);
  });
  return schedule;
}

PartialSumBytes all_pairs_partial_bytes(int n, Layout layout, Precision precision, std::size_t free_bytes) {
  PartialSumBytes out{};
  if (n <= 0) return out;
  // The schedules need the view's type and N alone: no state is read.
  out.one_sided = one_sided_partial_bytes(n, layout, precision);
  with_format(layout, precision, [&](auto format) {
    out.mutual = make_mutual_schedule<decltype(format)>(n, free_bytes).partial_bytes;
  });
  return out;
}

void mutual_kick(const StateViews& state, const MutualSchedule& s, const SimParams& params, void* partials,
                 cudaStream_t stream) {
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    using Real = typename View::Scalar;
    if (view.n <= 0) return;
    Real* sums = static_cast<Real*>(partials);
    launch(mutual_partials_kernel<View>,
           LaunchGrid{dim3(static_cast<unsigned>(s.tiles.rectangles())), dim3(kWarp)}, stream, view,
           softening_squared<Real>(params), s.tiles, sums);
    launch(mutual_kick_kernel<View>, {view.n, 256, 256}, stream, view, s.tiles,
           static_cast<const Real*>(sums), time_step<Real>(params));
  });
}

}  // namespace coalesce::gpu
