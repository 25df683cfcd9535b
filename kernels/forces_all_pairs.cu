// All-pairs kick: the classic shared-memory tiled N-body scheme, several (default two) bodies per thread for
// ILP. Each tile of kThreads bodies is loaded cooperatively as float4 {x, y, z, m} from whatever layout, so
// the inner loop (sim/physics.h accumulate_pair) is the same instructions for AoS, SoA and float4, and j runs
// 0..N-1 in order per body as on the CPU: the three layouts give bitwise-identical GPU results.
#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;  // threads per block = bodies per shared-memory tile
// Bodies per thread: independent FMA chains per shared-memory load (ILP). Same sums in the same order
// whatever the value, so results do not depend on it; tunable at configure time for the GPU at hand.
#ifndef COALESCE_ALLPAIRS_BODIES_PER_THREAD
#define COALESCE_ALLPAIRS_BODIES_PER_THREAD 2
#endif
constexpr int kBodiesPerThread = COALESCE_ALLPAIRS_BODIES_PER_THREAD;
constexpr int kBodiesPerBlock = kThreads * kBodiesPerThread;
static_assert(kBodiesPerThread >= 1 && kBodiesPerThread <= 8, "1 to 8 bodies per thread");

// Body b of this thread is blockIdx.x * kBodiesPerBlock + b * kThreads + threadIdx.x.
template <class View>
__global__ void __launch_bounds__(kThreads) all_pairs_kick_kernel(View view, float eps2, float dt) {
  __shared__ Float4 tile[kThreads];
  const int n = view.n;
  const int first = blockIdx.x * kBodiesPerBlock + threadIdx.x;
  Vec3 r[kBodiesPerThread];
  Vec3 acc[kBodiesPerThread];
#pragma unroll
  for (int b = 0; b < kBodiesPerThread; ++b) {
    // Threads past the end still load tiles and reach every barrier; they just do not write.
    r[b] = view.position(min(first + b * kThreads, n - 1));
    acc[b] = {0.0f, 0.0f, 0.0f};
  }

  for (int start = 0; start < n; start += kThreads) {
    const int j = start + threadIdx.x;
    if (j < n) tile[threadIdx.x] = view.position_mass(j);
    __syncthreads();
    const int count = min(kThreads, n - start);
    if (count == kThreads) {
#pragma unroll 16
      for (int k = 0; k < kThreads; ++k) {
        const Float4 body = tile[k];  // one broadcast LDS.128 feeds kBodiesPerThread interactions
#pragma unroll
        for (int b = 0; b < kBodiesPerThread; ++b)
          accumulate_pair(acc[b], r[b], {body.x, body.y, body.z}, body.w, eps2);
      }
    } else {
      // The last, partial tile: only real bodies, so no padding body can perturb the sum.
      for (int k = 0; k < count; ++k) {
        const Float4 body = tile[k];
#pragma unroll
        for (int b = 0; b < kBodiesPerThread; ++b)
          accumulate_pair(acc[b], r[b], {body.x, body.y, body.z}, body.w, eps2);
      }
    }
    __syncthreads();  // the tile is overwritten by the next iteration
  }
#pragma unroll
  for (int b = 0; b < kBodiesPerThread; ++b) {
    const int i = first + b * kThreads;
    if (i < n) view.set_velocity(i, kick(view.velocity(i), acc[b], dt));
  }
}

}  // namespace

void all_pairs_kick(const StateViews& state, float softening_squared, float dt, cudaStream_t stream) {
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    launch(all_pairs_kick_kernel<View>, {view.n, kBodiesPerBlock, kThreads}, stream, view, softening_squared,
           dt);
  });
}

}  // namespace coalesce::gpu
