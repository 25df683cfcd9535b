// All-pairs kick: the classic shared-memory tiled N-body scheme, several bodies per thread for ILP. Each tile
// of kThreads bodies j is loaded cooperatively as a vector {x, y, z, m} (float4, or double4_32a in fp64) from
// whatever layout, so the inner loop (sim/physics.h accumulate_pair) is the same instructions for AoS, SoA
// and float4 and the three layouts give bitwise-identical GPU results within a precision. The bodies i
// (targets) and j (sources) are two views of one layout: the whole state twice, or a rank's slice and all N.
//
// Schedule: the (body chunk, j tile) pairs are split into equal contiguous ranges, two per resident block
// slot (SMs x blocks per SM), so every SM does the same work whatever N: a grid of one block per chunk left
// SMs with 3 or 4 blocks at N = 262,144 and 34% achieved occupancy (ncu, docs/perf.md). A range
// can start or end inside a chunk; each block writes one partial sum per chunk it touched, and a second
// kernel adds a body's partials in block order (deterministic) and applies the kick.
#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "kernels/cuda_check.h"
#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;  // threads per block = bodies per shared-memory tile
// Bodies per thread: independent FMA chains per shared-memory load (ILP). Tunable at configure time for
// the GPU at hand; the sums do not depend on it.
#ifndef COALESCE_ALLPAIRS_BODIES_PER_THREAD
#define COALESCE_ALLPAIRS_BODIES_PER_THREAD 4
#endif
constexpr int kBodiesPerThread = COALESCE_ALLPAIRS_BODIES_PER_THREAD;
constexpr int kBodiesPerChunk = kThreads * kBodiesPerThread;
static_assert(kBodiesPerThread >= 1 && kBodiesPerThread <= 8, "1 to 8 bodies per thread");
// Blocks launched per resident slot: two equal waves measured 1-3% faster than one on an H100 (docs/perf.md).
constexpr int kWaves = 2;
// Stated explicitly, one block per SM lets ptxas give the loop 89 registers (2 blocks of 256 per SM) instead
// of the 48 it picks for occupancy without it: 3% faster on an H100, 2.16e12 vs 2.09e12 (docs/perf.md).
constexpr int kMinBlocksPerSm = 1;

// Which block does which (chunk, tile) pairs (AllPairsSchedule, kernels/kernels.h). Unit u is chunk
// u / tiles, tile u % tiles; block b does units [first_unit(b), first_unit(b + 1)). Block b's partial for
// chunk c is slot b + c: ranges are contiguous, so (b, c) pairs in block order never share a slot
// (docs/kernels.md).
__device__ inline long long first_unit(const AllPairsSchedule& s, int block) {
  return block * s.units / s.blocks;
}
// The block whose range holds unit u: the largest b with first_unit(b) <= u.
__device__ inline int owner(const AllPairsSchedule& s, long long u) {
  return static_cast<int>(((u + 1) * s.blocks - 1) / s.units);
}

// Partial sums: slot s holds x, y, z rows of kBodiesPerChunk scalars each (coalesced writes and reads).
template <class Real>
__device__ inline Real* partial_row(Real* partials, long long slot, int axis) {
  return partials + (slot * 3 + axis) * kBodiesPerChunk;
}

template <class View>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    all_pairs_partials_kernel(View targets, View sources, typename View::Scalar eps2, AllPairsSchedule s,
                              typename View::Scalar* partials) {
  using Real = typename View::Scalar;
  __shared__ Vec4T<Real> tile[kThreads];
  const int n = targets.n;
  const int sources_n = sources.n;
  const long long end = first_unit(s, blockIdx.x + 1);
  for (long long u = first_unit(s, blockIdx.x); u < end;) {
    const int chunk = static_cast<int>(u / s.tiles);
    const long long segment_end = min(end, static_cast<long long>(chunk + 1) * s.tiles);
    // Body b of this thread in the chunk: chunk * kBodiesPerChunk + b * kThreads + threadIdx.x.
    const int first = chunk * kBodiesPerChunk + threadIdx.x;
    Vec3T<Real> r[kBodiesPerThread];
    Vec3T<Real> acc[kBodiesPerThread];
#pragma unroll
    for (int b = 0; b < kBodiesPerThread; ++b) {
      // Threads past the end still load tiles and reach every barrier; their partials are never read.
      r[b] = targets.position(min(first + b * kThreads, n - 1));
      acc[b] = {Real(0), Real(0), Real(0)};
    }
    for (int t = static_cast<int>(u - static_cast<long long>(chunk) * s.tiles);
         t < static_cast<int>(segment_end - static_cast<long long>(chunk) * s.tiles); ++t) {
      const int start = t * kThreads;
      const int j = start + threadIdx.x;
      if (j < sources_n) tile[threadIdx.x] = sources.position_mass(j);
      __syncthreads();
      const int count = min(kThreads, sources_n - start);
      if (count == kThreads) {
#pragma unroll 16
        for (int k = 0; k < kThreads; ++k) {
          const Vec4T<Real> body = tile[k];  // one broadcast load feeds kBodiesPerThread interactions
#pragma unroll
          for (int b = 0; b < kBodiesPerThread; ++b)
            accumulate_pair(acc[b], r[b], {body.x, body.y, body.z}, body.w, eps2);
        }
      } else {
        // The last, partial tile: only real bodies, so no padding body can perturb the sum.
        for (int k = 0; k < count; ++k) {
          const Vec4T<Real> body = tile[k];
#pragma unroll
          for (int b = 0; b < kBodiesPerThread; ++b)
            accumulate_pair(acc[b], r[b], {body.x, body.y, body.z}, body.w, eps2);
        }
      }
      __syncthreads();  // the tile is overwritten by the next iteration
    }
    const long long slot = static_cast<long long>(blockIdx.x) + chunk;
#pragma unroll
    for (int b = 0; b < kBodiesPerThread; ++b) {
      const int local = b * kThreads + threadIdx.x;
      partial_row(partials, slot, 0)[local] = acc[b].x;
      partial_row(partials, slot, 1)[local] = acc[b].y;
      partial_row(partials, slot, 2)[local] = acc[b].z;
    }
    u = segment_end;
  }
}

// One thread per body: the partials of its chunk in block order, then v += a dt.
template <class View>
__global__ void __launch_bounds__(kThreads)
    all_pairs_kick_kernel(View view, AllPairsSchedule s, const typename View::Scalar* partials,
                          typename View::Scalar dt) {
  using Real = typename View::Scalar;
  const long long index = global_thread_index();
  if (index >= view.n) return;
  const int i = static_cast<int>(index);
  const int chunk = i / kBodiesPerChunk;
  const int local = i % kBodiesPerChunk;
  const long long chunk_first_unit = static_cast<long long>(chunk) * s.tiles;
  const int first_block = owner(s, chunk_first_unit);
  const int last_block = owner(s, chunk_first_unit + s.tiles - 1);
  Vec3T<Real> acc{Real(0), Real(0), Real(0)};
  for (int b = first_block; b <= last_block; ++b) {
    const long long slot = static_cast<long long>(b) + chunk;
    acc.x += partial_row(partials, slot, 0)[local];
    acc.y += partial_row(partials, slot, 1)[local];
    acc.z += partial_row(partials, slot, 2)[local];
  }
  view.set_velocity(i, kick(view.velocity(i), acc, dt));
}

// kWaves blocks per resident slot (this kernel's occupancy times the SM count), at most one per unit.
template <class View>
AllPairsSchedule make_schedule(int n, int sources_n) {
  int device = 0, sms = 0, per_sm = 0;
  COALESCE_CUDA_CHECK(cudaGetDevice(&device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  COALESCE_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, all_pairs_partials_kernel<View>, kThreads, 0));
  AllPairsSchedule s{};
  s.chunks = (n + kBodiesPerChunk - 1) / kBodiesPerChunk;
  s.tiles = (sources_n + kThreads - 1) / kThreads;
  s.units = static_cast<long long>(s.chunks) * s.tiles;
  const long long slots = static_cast<long long>(sms) * std::max(per_sm, 1);
  s.blocks = static_cast<int>(std::min(slots * kWaves, s.units));
  // Slots b + c for every block b and chunk c it touches: at most blocks + chunks of them.
  s.partial_bytes = static_cast<std::size_t>(static_cast<long long>(s.blocks) + s.chunks) * 3 * kBodiesPerChunk *
                    sizeof(typename View::Scalar);
  return s;
}

void check_same_format(const StateViews& targets, const StateViews& sources) {
  if (targets.layout != sources.layout || targets.precision != sources.precision)
    throw std::invalid_argument("gpu::all_pairs_kick: targets and sources must share one layout and precision");
}

}  // namespace

AllPairsSchedule all_pairs_schedule(const StateViews& targets, const StateViews& sources) {
  check_same_format(targets, sources);
  AllPairsSchedule schedule{};
  with_view(targets, [&](const auto& view) {
    if (view.n > 0 && sources.n > 0) schedule = make_schedule<std::decay_t<decltype(view)>>(view.n, sources.n);
  });
  return schedule;
}

void all_pairs_kick(const StateViews& targets, const StateViews& sources, const AllPairsSchedule& s,
                    const SimParams& params, void* partials, cudaStream_t stream) {
  check_same_format(targets, sources);
  with_view(targets, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    using Real = typename View::Scalar;
    if (view.n <= 0 || sources.n <= 0) return;
    const View source_view = View::over(sources.base, sources.n);
    Real* sums = static_cast<Real*>(partials);
    launch(all_pairs_partials_kernel<View>, LaunchGrid{dim3(static_cast<unsigned>(s.blocks)), dim3(kThreads)},
           stream, view, source_view, softening_squared<Real>(params), s, sums);
    launch(all_pairs_kick_kernel<View>, {view.n, kThreads, kThreads}, stream, view, s,
           static_cast<const Real*>(sums), static_cast<Real>(params.dt));
  });
}

}  // namespace coalesce::gpu
