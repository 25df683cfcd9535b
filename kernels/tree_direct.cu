// The exact reference of the tree (kernels/tree.h): each target's acceleration from all n bodies in double.
// A block takes a tile of targets and a chunk of the bodies, so each body is read once per tile rather than
// once per target (the panel checks 1,024 targets against 16M bodies once a second); every split and every
// sum is fixed, so the same state gives the same bits.
#include <algorithm>
#include <type_traits>

#include "kernels/device_buffer.h"
#include "kernels/launch.h"
#include "kernels/tree.h"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kTile = 16;                 // targets per block: 48 double accumulators per thread
constexpr int kMaxChunks = 64;            // source chunks: 64 tiles x 64 chunks fill any GPU
constexpr int kMinChunkBodies = 16 * kThreads;  // a chunk gives each thread at least 16 bodies

template <class View>
__global__ void __launch_bounds__(kThreads)
    direct_partials_kernel(View view, const int* targets, int count, double eps2, double* partials) {
  __shared__ double target[3][kTile];
  __shared__ double warp_sums[kWarps][3 * kTile];
  const int first = static_cast<int>(blockIdx.x) * kTile;
  if (threadIdx.x < kTile) {
    // A short last tile repeats its last target; those sums are never written.
    const auto p = view.position(targets[min(first + static_cast<int>(threadIdx.x), count - 1)]);
    target[0][threadIdx.x] = p.x;
    target[1][threadIdx.x] = p.y;
    target[2][threadIdx.x] = p.z;
  }
  __syncthreads();
  const long long n = view.n;
  const int begin = static_cast<int>(n * blockIdx.y / gridDim.y);
  const int end = static_cast<int>(n * (blockIdx.y + 1) / gridDim.y);
  double a[3 * kTile] = {};
  for (int j = begin + static_cast<int>(threadIdx.x); j < end; j += kThreads) {
    const auto pj = view.position_mass(j);
    const double xj = pj.x, yj = pj.y, zj = pj.z, mj = pj.w;
#pragma unroll
    for (int t = 0; t < kTile; ++t) {
      const double dx = xj - target[0][t], dy = yj - target[1][t], dz = zj - target[2][t];
      const double r2 = dx * dx + dy * dy + dz * dz + eps2;
      const double inv = rsqrt(r2);  // within 2 ulp: far below any error the reference is used to judge
      const double s = mj * inv * inv * inv;
      a[3 * t] += dx * s;
      a[3 * t + 1] += dy * s;
      a[3 * t + 2] += dz * s;
    }
  }
  const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
#pragma unroll
  for (int k = 0; k < 3 * kTile; ++k) {
    double v = a[k];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (lane == 0) warp_sums[warp][k] = v;
  }
  __syncthreads();
  if (threadIdx.x < 3 * kTile) {
    const int k = static_cast<int>(threadIdx.x), t = k / 3;
    double sum = 0;
    for (int w = 0; w < kWarps; ++w) sum += warp_sums[w][k];
    if (first + t < count) partials[(static_cast<long long>(blockIdx.y) * count + first) * 3 + k] = sum;
  }
}

// Each target's chunks, summed in chunk order.
__global__ void direct_sum_kernel(const double* partials, int count, int chunks, double* out) {
  const long long k = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (k >= 3LL * count) return;
  double sum = 0;
  for (int c = 0; c < chunks; ++c) sum += partials[3LL * count * c + k];
  out[k] = sum;
}

}  // namespace

void direct_accelerations(const StateViews& state, const int* targets, int count, double* out, double eps2,
                          cudaStream_t stream) {
  if (count <= 0) return;
  const int chunks = static_cast<int>(
      std::clamp<long long>((static_cast<long long>(state.n) + kMinChunkBodies - 1) / kMinChunkBodies, 1, kMaxChunks));
  DeviceBuffer<double> partials(3 * static_cast<std::size_t>(count) * static_cast<std::size_t>(chunks));
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    const dim3 grid(static_cast<unsigned>((count + kTile - 1) / kTile), static_cast<unsigned>(chunks));
    launch(direct_partials_kernel<View>, LaunchGrid{grid, dim3(kThreads)}, stream, view, targets, count, eps2,
           partials.data());
  });
  launch(direct_sum_kernel, {3 * count, kThreads, kThreads}, stream, partials.data(), count, chunks, out);
  // `partials` is freed on return: wait for the sums that read it.
  COALESCE_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace coalesce::gpu
