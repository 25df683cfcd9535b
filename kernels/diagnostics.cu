// Diagnostics kernels: kinetic energy, momentum, angular momentum and potential of the device state, every
// term in double precision from the state (fp32 widened exactly, or fp64) as compute_diagnostics does. Each
// block sums its terms in a fixed tree order and one final block adds the block sums in a fixed order, so
// results are deterministic.
#include "kernels/diagnostics.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <type_traits>

#include "kernels/device_buffer.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;  // threads per block; all-pairs: rows per block and bodies per shared tile
constexpr int kWarps = kThreads / 32;
static_assert(kThreads % 32 == 0 && (kWarps & (kWarps - 1)) == 0, "whole warps, a power of two of them");
// Attractors: a grid-stride loop over at most this many blocks keeps the block sums small for any N, and a
// fixed count (not one per SM) keeps the summation order the same on every GPU.
constexpr int kMaxAttractorBlocks = 1024;

// The sums carried through both reductions; block sums are stored value-major: [value][block].
enum SumIndex {
  kKinetic,
  kPotential,
  kMomentumX,
  kMomentumY,
  kMomentumZ,
  kAngularX,
  kAngularY,
  kAngularZ,
  kSumCount
};

// A tile entry, widened once by the thread that loads it rather than by every reader.
struct alignas(16) BodyD {
  double x, y, z, m;
};

template <class Real>
__device__ inline BodyD widen(Vec4T<Real> p) {
  return {p.x, p.y, p.z, p.w};
}

// |b - a|^2 + eps^2 from coordinates already widened to double, rounded as the CPU rounds it: explicit
// _rn operations, so no multiply-add is contracted into an FMA and each term matches compute_diagnostics'.
__device__ inline double softened_distance_squared(double ax, double ay, double az, double bx, double by,
                                                   double bz, double eps2) {
  const double dx = __dsub_rn(bx, ax), dy = __dsub_rn(by, ay), dz = __dsub_rn(bz, az);
  return __dadd_rn(__dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz)), eps2);
}

// a b - c d, each product rounded before the difference, as the CPU (no FMA contraction there) rounds it.
__device__ inline double cross_term(double a, double b, double c, double d) {
  return __dsub_rn(__dmul_rn(a, b), __dmul_rn(c, d));
}

// Kinetic energy, momentum and angular momentum about the origin of one particle, rounded as on the CPU
// (m v is exact in double anyway).
template <class Real>
__device__ inline void add_motion(double (&sums)[kSumCount], const BodyD& p, Vec3T<Real> v) {
  const double m = p.m, vx = v.x, vy = v.y, vz = v.z;
  const double v2 = __dadd_rn(__dadd_rn(__dmul_rn(vx, vx), __dmul_rn(vy, vy)), __dmul_rn(vz, vz));
  sums[kKinetic] += __dmul_rn(__dmul_rn(0.5, m), v2);
  sums[kMomentumX] += __dmul_rn(m, vx);
  sums[kMomentumY] += __dmul_rn(m, vy);
  sums[kMomentumZ] += __dmul_rn(m, vz);
  sums[kAngularX] += __dmul_rn(m, cross_term(p.y, vz, p.z, vy));
  sums[kAngularY] += __dmul_rn(m, cross_term(p.z, vx, p.x, vz));
  sums[kAngularZ] += __dmul_rn(m, cross_term(p.x, vy, p.y, vx));
}

// Sums each value over the block in a fixed order; the totals are valid in thread 0. Every thread of the
// (full) block must call it, at most once per kernel: its shared array is not guarded for reuse.
__device__ void block_sum(double (&sums)[kSumCount]) {
  __shared__ double warp_sums[kWarps][kSumCount];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int q = 0; q < kSumCount; ++q)
    for (int offset = 16; offset > 0; offset /= 2) sums[q] += __shfl_down_sync(0xffffffffu, sums[q], offset);
  if (lane == 0) {
#pragma unroll
    for (int q = 0; q < kSumCount; ++q) warp_sums[warp][q] = sums[q];
  }
  __syncthreads();
  if (warp == 0) {
#pragma unroll
    for (int q = 0; q < kSumCount; ++q) {
      sums[q] = lane < kWarps ? warp_sums[lane][q] : 0.0;
      for (int offset = kWarps / 2; offset > 0; offset /= 2)
        sums[q] += __shfl_down_sync(0xffffffffu, sums[q], offset);
    }
  }
}

__device__ inline void store_block_sums(const double (&sums)[kSumCount], double* block_sums) {
  if (threadIdx.x != 0) return;
#pragma unroll
  for (int q = 0; q < kSumCount; ++q) block_sums[q * gridDim.x + blockIdx.x] = sums[q];
}

// Row i per thread: the sum over j > i of m_j / r_ij, with j ascending as on the CPU. Tiles start at the
// block's own (diagonal) one, so each pair is evaluated once and the work is the upper triangle.
template <class View>
__global__ void __launch_bounds__(kThreads)
    all_pairs_diagnostics_kernel(View view, double eps2, double* block_sums) {
  __shared__ BodyD tile[kThreads];
  const int n = view.n;
  const int block_start = static_cast<int>(blockIdx.x) * kThreads;
  const int i = block_start + static_cast<int>(threadIdx.x);
  double sums[kSumCount] = {};
  BodyD self{0.0, 0.0, 0.0, 0.0};  // a thread past the end adds nothing (m = 0) but reaches every barrier
  if (i < n) {
    self = widen(view.position_mass(i));
    add_motion(sums, self, view.velocity(i));
  }
  double row = 0.0;
  for (int start = block_start; start < n; start += kThreads) {
    const int j = start + static_cast<int>(threadIdx.x);
    if (j < n) tile[threadIdx.x] = widen(view.position_mass(j));
    __syncthreads();
    const int count = min(kThreads, n - start);
    // Diagonal tile: only bodies after this row's own (a thread past the end has none: threadIdx >= count).
    const int first = start == block_start ? static_cast<int>(threadIdx.x) + 1 : 0;
    for (int k = first; k < count; ++k) {
      const BodyD b = tile[k];
      // m_j / sqrt(r^2 + eps^2): IEEE sqrt and division, correctly rounded like the CPU's.
      row += b.m / sqrt(softened_distance_squared(self.x, self.y, self.z, b.x, b.y, b.z, eps2));
    }
    __syncthreads();  // the tile is overwritten by the next iteration
  }
  sums[kPotential] = -self.m * row;
  block_sum(sums);
  store_block_sums(sums, block_sums);
}

template <class View>
__global__ void __launch_bounds__(kThreads)
    attractor_diagnostics_kernel(View view, const __grid_constant__ AttractorSnapshotT<double> snapshot, double eps2,
                                 double* block_sums) {
  double sums[kSumCount] = {};
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long index = global_thread_index(); index < view.n; index += stride) {
    const int i = static_cast<int>(index);
    const BodyD p = widen(view.position_mass(i));
    add_motion(sums, p, view.velocity(i));
    for (int k = 0; k < snapshot.count; ++k) {
      const Vec3T<double> a = snapshot.position[k];
      const double r2 = softened_distance_squared(p.x, p.y, p.z, a.x, a.y, a.z, eps2);
      sums[kPotential] -= __dmul_rn(p.m, static_cast<double>(snapshot.mass[k])) / sqrt(r2);  // as on the CPU
    }
  }
  block_sum(sums);
  store_block_sums(sums, block_sums);
}

// One block adds the block sums of each value, each thread a fixed stride of blocks, then the block tree.
__global__ void __launch_bounds__(kThreads)
    final_sum_kernel(const double* block_sums, int blocks, double* totals) {
  double sums[kSumCount];
#pragma unroll
  for (int q = 0; q < kSumCount; ++q) {
    double s = 0.0;
    for (int b = static_cast<int>(threadIdx.x); b < blocks; b += kThreads)
      s += block_sums[static_cast<std::size_t>(q) * blocks + b];
    sums[q] = s;
  }
  block_sum(sums);
  if (threadIdx.x == 0) {
#pragma unroll
    for (int q = 0; q < kSumCount; ++q) totals[q] = sums[q];
  }
}

// Block sums then the totals, in one allocation: kSumCount x blocks, then kSumCount.
DeviceBuffer<double> sums_buffer(int blocks) {
  return DeviceBuffer<double>((static_cast<std::size_t>(blocks) + 1) * kSumCount);
}

// Runs the final sum over `blocks` block sums and copies the totals back; synchronizes `stream`.
Diagnostics finish(const DeviceBuffer<double>& buffer, int blocks, cudaStream_t stream) {
  double* totals = buffer.data() + static_cast<std::size_t>(blocks) * kSumCount;
  launch(final_sum_kernel, LaunchGrid{1, kThreads}, stream, buffer.data(), blocks, totals);
  std::array<double, kSumCount> host{};
  COALESCE_CUDA_CHECK(
      cudaMemcpyAsync(host.data(), totals, sizeof(double) * kSumCount, cudaMemcpyDeviceToHost, stream));
  COALESCE_CUDA_CHECK(cudaStreamSynchronize(stream));
  Diagnostics d;
  d.kinetic_energy = host[kKinetic];
  d.potential_energy = host[kPotential];
  d.total_energy = d.kinetic_energy + d.potential_energy;
  d.momentum = {host[kMomentumX], host[kMomentumY], host[kMomentumZ]};
  d.angular_momentum = {host[kAngularX], host[kAngularY], host[kAngularZ]};
  return d;
}

int blocks_for(int n) {
  return static_cast<int>((static_cast<std::int64_t>(n) + kThreads - 1) / kThreads);
}

}  // namespace

Diagnostics all_pairs_diagnostics(const StateViews& state, double softening_squared, cudaStream_t stream) {
  Diagnostics d;
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    const int blocks = blocks_for(view.n);
    const DeviceBuffer<double> buffer = sums_buffer(blocks);
    launch(all_pairs_diagnostics_kernel<View>, {view.n, kThreads, kThreads}, stream, view, softening_squared,
           buffer.data());
    d = finish(buffer, blocks, stream);
  });
  return d;
}

Diagnostics attractor_diagnostics(const StateViews& state, const AttractorSnapshotT<double>& snapshot,
                                  double softening_squared, cudaStream_t stream) {
  Diagnostics d;
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    const int blocks = std::min(blocks_for(view.n), kMaxAttractorBlocks);
    const DeviceBuffer<double> buffer = sums_buffer(blocks);
    launch(attractor_diagnostics_kernel<View>, LaunchGrid{blocks, kThreads}, stream, view, snapshot,
           softening_squared, buffer.data());
    d = finish(buffer, blocks, stream);
  });
  return d;
}

Diagnostics motion_diagnostics(const StateViews& state, cudaStream_t stream) {
  return attractor_diagnostics(state, AttractorSnapshotT<double>{}, 0.0, stream);  // no attractor: no potential
}

}  // namespace coalesce::gpu
