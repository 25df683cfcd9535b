// All-pairs kick: the classic shared-memory tiled N-body scheme, several bodies per thread for ILP. Each tile
// of kThreads bodies j is loaded cooperatively as a vector {x, y, z, m} (float4, or double4_32a in fp64) from
// whatever layout, so the inner loop (sim/physics.h accumulate_pair) is the same instructions for AoS, SoA
// and float4 and the three layouts give bitwise-identical GPU results within a precision. The bodies i
// (targets) are a range of the state, all of it or a rank's slice; the bodies j (sources) are always all N.
//
// Schedule: the j range is cut into segments whose length depends on N alone, and a unit is one chunk of
// targets against one segment. Each unit writes its own partial sums, and a second kernel adds a body's
// partials in segment order and applies the kick: every body's sum is the same arithmetic whichever range
// of targets a launch covers, so K ranks' slices give one rank's state bit for bit (docs/kernels.md). The
// units are split into equal contiguous ranges, two per resident block slot (SMs x blocks per SM), so every
// SM does the same work whatever N: a grid of one block per chunk left SMs with 3 or 4 blocks at N =
// 262,144 and 34% achieved occupancy (ncu, docs/perf.md).
#include <algorithm>
#include <stdexcept>
#include <string>
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
// Units of a whole-N step the segments aim at: 62 per block on an H200's 528, so the ranges' rounding costs
// under 2%; their partial sums take at most 32768 x 3 x kBodiesPerChunk scalars (403 MB in fp32).
constexpr long long kTargetUnits = 32768;
// No shorter segments: each unit reloads its targets and writes 3 x kBodiesPerChunk partials.
constexpr int kMinSegmentTiles = 4;

// Block b of a launch does units [first_unit(b), first_unit(b + 1)) of its `units`; unit u is chunk
// u / segments of the launch, segment first_segment + u % segments.
__device__ inline long long first_unit(long long units, int block) {
  return block * units / gridDim.x;
}

// Partial sums: slot (chunk, segment) holds x, y, z rows of kBodiesPerChunk scalars each (coalesced writes
// and reads).
template <class Real>
__device__ inline Real* partial_row(Real* partials, const AllPairsSchedule& s, int chunk, int segment, int axis) {
  const long long slot = static_cast<long long>(chunk) * s.segments + segment;
  return partials + (slot * 3 + axis) * kBodiesPerChunk;
}

template <class View>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm)
    all_pairs_partials_kernel(View targets, View sources, typename View::Scalar eps2, AllPairsSchedule s,
                              SegmentRange launched, typename View::Scalar* partials) {
  using Real = typename View::Scalar;
  __shared__ Vec4T<Real> tile[kThreads];
  const int n = targets.n;
  const int sources_n = sources.n;
  const int segments = launched.end - launched.begin;
  const long long units = static_cast<long long>(s.chunks) * segments;
  const long long end = first_unit(units, blockIdx.x + 1);
  for (long long u = first_unit(units, blockIdx.x); u < end; ++u) {
    const int chunk = static_cast<int>(u / segments);
    const int segment = launched.begin + static_cast<int>(u % segments);
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
    const int tile_end = min(s.tiles, (segment + 1) * s.segment_tiles);
    for (int t = segment * s.segment_tiles; t < tile_end; ++t) {
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
#pragma unroll
    for (int b = 0; b < kBodiesPerThread; ++b) {
      const int local = b * kThreads + threadIdx.x;
      partial_row(partials, s, chunk, segment, 0)[local] = acc[b].x;
      partial_row(partials, s, chunk, segment, 1)[local] = acc[b].y;
      partial_row(partials, s, chunk, segment, 2)[local] = acc[b].z;
    }
  }
}

// One thread per target: its partials in segment order, then v += a dt.
template <class View>
__global__ void __launch_bounds__(kThreads)
    all_pairs_kick_kernel(View targets, AllPairsSchedule s, const typename View::Scalar* partials,
                          typename View::Scalar dt) {
  using Real = typename View::Scalar;
  const long long index = global_thread_index();
  if (index >= targets.n) return;
  const int i = static_cast<int>(index);
  const int chunk = i / kBodiesPerChunk;
  const int local = i % kBodiesPerChunk;
  Vec3T<Real> acc{Real(0), Real(0), Real(0)};
  for (int segment = 0; segment < s.segments; ++segment) {
    acc.x += partial_row(partials, s, chunk, segment, 0)[local];
    acc.y += partial_row(partials, s, chunk, segment, 1)[local];
    acc.z += partial_row(partials, s, chunk, segment, 2)[local];
  }
  targets.set_velocity(i, kick(targets.velocity(i), acc, dt));
}

// Segments from N alone (never from the targets or the device): kTargetUnits units for a whole-N step, each
// at least kMinSegmentTiles tiles long where N allows.
AllPairsSchedule make_segments(int targets_n, int sources_n) {
  AllPairsSchedule s{};
  s.chunks = (targets_n + kBodiesPerChunk - 1) / kBodiesPerChunk;
  s.sources = sources_n;
  s.tiles = (sources_n + kThreads - 1) / kThreads;
  const long long whole_chunks = (sources_n + kBodiesPerChunk - 1) / kBodiesPerChunk;
  const long long wanted = (kTargetUnits + whole_chunks - 1) / whole_chunks;
  const long long most = std::max(1, s.tiles / kMinSegmentTiles);
  const int segments = static_cast<int>(std::max(1LL, std::min(wanted, most)));
  s.segment_tiles = (s.tiles + segments - 1) / segments;
  s.segments = (s.tiles + s.segment_tiles - 1) / s.segment_tiles;
  return s;
}

// kWaves blocks per resident slot (this kernel's occupancy times the SM count).
template <class View>
AllPairsSchedule make_schedule(int targets_n, int sources_n) {
  int device = 0, sms = 0, per_sm = 0;
  COALESCE_CUDA_CHECK(cudaGetDevice(&device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  COALESCE_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, all_pairs_partials_kernel<View>, kThreads, 0));
  AllPairsSchedule s = make_segments(targets_n, sources_n);
  s.resident_blocks = sms * std::max(per_sm, 1) * kWaves;
  s.partial_bytes = static_cast<std::size_t>(s.chunks) * s.segments * 3 * kBodiesPerChunk *
                    sizeof(typename View::Scalar);
  return s;
}

void check_range(const StateViews& state, BodyRange targets) {
  if (targets.begin < 0 || targets.end > state.n || targets.begin > targets.end)
    throw std::invalid_argument("gpu::all_pairs: target range [" + std::to_string(targets.begin) + ", " +
                                std::to_string(targets.end) + ") is not within the " + std::to_string(state.n) +
                                " bodies");
}

}  // namespace

std::size_t one_sided_partial_bytes(int n, Layout layout, Precision precision) {
  std::size_t bytes = 0;
  if (n > 0)
    with_format(layout, precision,
                [&](auto format) { bytes = make_schedule<decltype(format)>(n, n).partial_bytes; });
  return bytes;
}

AllPairsSchedule all_pairs_schedule(const StateViews& state, BodyRange targets) {
  check_range(state, targets);
  AllPairsSchedule schedule{};
  with_view(state, [&](const auto& view) {
    if (targets.end > targets.begin)
      schedule = make_schedule<std::decay_t<decltype(view)>>(targets.end - targets.begin, view.n);
  });
  return schedule;
}

void all_pairs_partials(const StateViews& state, BodyRange targets, const AllPairsSchedule& s,
                        SegmentRange segments, const SimParams& params, void* partials, cudaStream_t stream) {
  check_range(state, targets);
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    using Real = typename View::Scalar;
    const long long units = static_cast<long long>(s.chunks) * (segments.end - segments.begin);
    if (units <= 0) return;
    const unsigned blocks = static_cast<unsigned>(std::min<long long>(s.resident_blocks, units));
    launch(all_pairs_partials_kernel<View>, LaunchGrid{dim3(blocks), dim3(kThreads)}, stream,
           view.slice(targets.begin, targets.end - targets.begin), view, softening_squared<Real>(params), s,
           segments, static_cast<Real*>(partials));
  });
}

void all_pairs_finish(const StateViews& state, BodyRange targets, const AllPairsSchedule& s,
                      const SimParams& params, const void* partials, cudaStream_t stream) {
  check_range(state, targets);
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    using Real = typename View::Scalar;
    const int count = targets.end - targets.begin;
    launch(all_pairs_kick_kernel<View>, {count, kThreads, kThreads}, stream, view.slice(targets.begin, count),
           s, static_cast<const Real*>(partials), time_step<Real>(params));
  });
}

void all_pairs_kick(const StateViews& state, BodyRange targets, const AllPairsSchedule& s,
                    const SimParams& params, void* partials, cudaStream_t stream) {
  all_pairs_partials(state, targets, s, {0, s.segments}, params, partials, stream);
  all_pairs_finish(state, targets, s, params, partials, stream);
}

}  // namespace coalesce::gpu
