// All-pairs kick: the classic shared-memory tiled N-body scheme, two bodies per thread for ILP.
// Each tile of kThreads bodies is loaded cooperatively as float4 {x, y, z, m} from whatever layout, so the
// inner loop (sim/physics.h accumulate_pair) is the same instructions for AoS, SoA and float4, and j runs
// 0..N-1 in order per body as on the CPU: the three layouts give bitwise-identical GPU results.
#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;        // threads per block = bodies per shared-memory tile
constexpr int kBodiesPerThread = 2;  // body i and i + kThreads: two independent FMA chains per tile load
constexpr int kBodiesPerBlock = kThreads * kBodiesPerThread;

__device__ __forceinline__ void interact(Vec3& acc0, Vec3& acc1, Vec3 r0, Vec3 r1, Float4 b, float eps2) {
  const Vec3 rj{b.x, b.y, b.z};
  accumulate_pair(acc0, r0, rj, b.w, eps2);
  accumulate_pair(acc1, r1, rj, b.w, eps2);
}

template <class View>
__global__ void __launch_bounds__(kThreads) all_pairs_kick_kernel(View view, float eps2, float dt) {
  __shared__ Float4 tile[kThreads];
  const int n = view.n;
  const int i0 = blockIdx.x * kBodiesPerBlock + threadIdx.x;
  const int i1 = i0 + kThreads;
  // Threads past the end still load tiles and reach every barrier; they just do not write.
  const Vec3 r0 = view.position(min(i0, n - 1));
  const Vec3 r1 = view.position(min(i1, n - 1));
  Vec3 acc0{0.0f, 0.0f, 0.0f};
  Vec3 acc1{0.0f, 0.0f, 0.0f};

  for (int start = 0; start < n; start += kThreads) {
    const int j = start + threadIdx.x;
    if (j < n) tile[threadIdx.x] = load_position_mass(view, j);
    __syncthreads();
    const int count = min(kThreads, n - start);
    if (count == kThreads) {
#pragma unroll 16
      for (int k = 0; k < kThreads; ++k) interact(acc0, acc1, r0, r1, tile[k], eps2);
    } else {
      // The last, partial tile: only real bodies, so no padding body can perturb the sum.
      for (int k = 0; k < count; ++k) interact(acc0, acc1, r0, r1, tile[k], eps2);
    }
    __syncthreads();  // the tile is overwritten by the next iteration
  }
  if (i0 < n) view.set_velocity(i0, kick(view.velocity(i0), acc0, dt));
  if (i1 < n) view.set_velocity(i1, kick(view.velocity(i1), acc1, dt));
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
