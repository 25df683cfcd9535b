// Pack: the state transposed into the render buffer, N x {x, y, z, |v|}, in four variants (docs/kernels.md).
// Built with -fmad=false (kernels/CMakeLists.txt) so |v| rounds exactly as on the CPU: every variant and
// the CPU backend write the same bits.
//
// The tiled variants view one block's output (256 particles x 4 attributes = 1024 floats) as a 32 x 32
// tile: row (a * 8 + warp) holds attribute a of the warp's 32 particles. Rows are written coalesced; the
// interleaved output is then read down columns. A warp reading 32 consecutive output words touches 8
// particles x 4 attributes: without padding all 4 attributes of a particle sit in one bank (4-way
// conflict); with a 33-float row pitch, row a * 8 + g shifts by 8a banks and all 32 reads hit distinct banks.
#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;   // particles per block in every variant
constexpr int kTile = 32;       // the 32 x 32 float tile of the tiled variants
constexpr int kAttributes = 4;  // x, y, z, speed

// One particle's source values, read the same way by the naive and vector variants and, for SoA and
// float4, by the tiled variants (their reads are already coalesced).
template <class View, class Vec>
__device__ void read_particle(const View& view, int i, Vec& p, Vec& v) {
  p = view.position(i);
  v = view.velocity(i);
}

// Phase 1 of the tiled variants. SoA and float4: each thread reads its own particle (coalesced rows or
// 16-byte vectors). AoS: the block's 256 records are first staged through shared memory with
// coalesced 16-byte loads (kernels/particle_access.cuh), then each thread picks its fields.
template <class View>
struct TileGather {
  using Vec = Vec3T<typename View::Scalar>;
  __device__ static void gather(const View& view, long long first, int count, Vec& p, Vec& v) {
    if (static_cast<int>(threadIdx.x) < count)
      read_particle(view, static_cast<int>(first) + threadIdx.x, p, v);
  }
};

template <class Real>
struct TileGather<LayoutView<Layout::AoS, Real>> {
  using Vec = Vec3T<Real>;
  __device__ static void gather(const LayoutView<Layout::AoS, Real>& view, long long first, int count, Vec& p,
                                Vec& v) {
    __shared__ __align__(16) ParticleRecord<Real> stage[kThreads];
    AosBlockStage<kThreads, Real>::load(view.particles, first, count, stage);
    __syncthreads();
    if (static_cast<int>(threadIdx.x) < count) {
      const ParticleRecord<Real>& r = stage[threadIdx.x];
      p = {r.x, r.y, r.z};
      v = {r.vx, r.vy, r.vz};
    }
  }
};

template <class View>
__global__ void __launch_bounds__(kThreads) pack_naive_kernel(View view, float* out) {
  const long long index = global_thread_index();
  if (index >= view.n) return;
  Vec3T<typename View::Scalar> p, v;
  read_particle(view, static_cast<int>(index), p, v);
  float* o = out + index * kAttributes;  // four scalar stores, 16 bytes apart across the warp
  o[0] = static_cast<float>(p.x);
  o[1] = static_cast<float>(p.y);
  o[2] = static_cast<float>(p.z);
  o[3] = static_cast<float>(speed(v));
}

template <class View>
__global__ void __launch_bounds__(kThreads) pack_vector_kernel(View view, Float4* out) {
  const long long index = global_thread_index();
  if (index >= view.n) return;
  Vec3T<typename View::Scalar> p, v;
  read_particle(view, static_cast<int>(index), p, v);
  // One 16-byte store per particle.
  out[index] = {static_cast<float>(p.x), static_cast<float>(p.y), static_cast<float>(p.z),
                static_cast<float>(speed(v))};
}

template <int kPitch, class View>
__global__ void __launch_bounds__(kThreads) pack_tiled_kernel(View view, float* out) {
  __shared__ float tile[kTile * kPitch];
  const long long first = static_cast<long long>(blockIdx.x) * kThreads;
  const int count = static_cast<int>(min(static_cast<long long>(kThreads), view.n - first));
  const int warp = threadIdx.x / kTile;
  const int lane = threadIdx.x % kTile;

  Vec3T<typename View::Scalar> p{}, v{};
  TileGather<View>::gather(view, first, count, p, v);
  if (static_cast<int>(threadIdx.x) < count) {
    // Row writes: the 32 lanes of a warp write 32 consecutive words of one row (conflict-free).
    tile[(0 * 8 + warp) * kPitch + lane] = static_cast<float>(p.x);
    tile[(1 * 8 + warp) * kPitch + lane] = static_cast<float>(p.y);
    tile[(2 * 8 + warp) * kPitch + lane] = static_cast<float>(p.z);
    tile[(3 * 8 + warp) * kPitch + lane] = static_cast<float>(speed(v));
  }
  __syncthreads();

  float* o = out + first * kAttributes;
#pragma unroll
  for (int k = 0; k < kAttributes; ++k) {
    const int w = k * kThreads + threadIdx.x;  // consecutive lanes write consecutive output words
    const int q = w / kAttributes;             // particle within the block
    const int a = w % kAttributes;             // attribute
    if (q < count) o[w] = tile[(a * 8 + q / kTile) * kPitch + q % kTile];  // the column read
  }
}

template <class View>
void launch_pack(const View& view, PackVariant variant, Float4* out, cudaStream_t stream) {
  const LaunchShape shape{view.n, kThreads, kThreads};
  float* words = reinterpret_cast<float*>(out);
  switch (variant) {
    case PackVariant::Naive:
      launch(pack_naive_kernel<View>, shape, stream, view, words);
      return;
    case PackVariant::Tiled:
      launch(pack_tiled_kernel<kTile, View>, shape, stream, view, words);
      return;
    case PackVariant::TiledPadded:
      launch(pack_tiled_kernel<kTile + 1, View>, shape, stream, view, words);
      return;
    case PackVariant::Vector:
      launch(pack_vector_kernel<View>, shape, stream, view, out);
      return;
  }
}

}  // namespace

void pack(const StateViews& state, PackVariant variant, Float4* out, cudaStream_t stream) {
  with_view(state, [&](const auto& view) { launch_pack(view, variant, out, stream); });
}

}  // namespace coalesce::gpu
