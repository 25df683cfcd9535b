// Layout conversion on the device, within one precision: one particle per thread, a pure copy of the seven
// scalars (bitwise).
// An AoS side, source or destination, goes through shared memory as the block's contiguous record range
// (kernels/particle_access.cuh): reading or writing 28-byte records one per thread would leave every
// warp access strided by 28 bytes (46% of copy for float4 -> AoS before, docs/perf.md).
#include <stdexcept>
#include <type_traits>

#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;

template <class From, class To>
__global__ void __launch_bounds__(kThreads) convert_kernel(From from, To to) {
  constexpr bool kFromAos = From::kLayout == Layout::AoS;
  constexpr bool kToAos = To::kLayout == Layout::AoS;
  static_assert(std::is_same_v<typename From::Scalar, typename To::Scalar>, "one precision on both sides");
  using Real = typename From::Scalar;
  using Record = ParticleRecord<Real>;
  using Stage = AosBlockStage<kThreads, Real>;
  __shared__ __align__(16) Record stage[kThreads];  // used only where a side is AoS
  const long long first = static_cast<long long>(blockIdx.x) * kThreads;
  const int count = static_cast<int>(min(static_cast<long long>(kThreads), from.n - first));
  const int i = static_cast<int>(first) + static_cast<int>(threadIdx.x);
  const bool mine = static_cast<int>(threadIdx.x) < count;

  Record p{};
  if constexpr (kFromAos) {
    Stage::load(from.particles, first, count, stage);
    __syncthreads();
    if (mine) p = stage[threadIdx.x];
  } else if (mine) {
    p = load_particle(from, i);
  }

  if constexpr (kToAos) {
    if constexpr (kFromAos) __syncthreads();  // every thread has read its record before the stage is reused
    if (mine) stage[threadIdx.x] = p;
    __syncthreads();
    Stage::store(stage, to.particles, first, count);
  } else if (mine) {
    to.store(i, p);
  }
}

}  // namespace

void convert(const StateViews& from, const StateViews& to, cudaStream_t stream) {
  if (from.precision != to.precision)
    throw std::invalid_argument("gpu::convert: both states must have one precision (precision changes go through the host)");
  with_view(from, [&](const auto& src) {
    with_view(to, [&](const auto& dst) {
      using From = std::decay_t<decltype(src)>;
      using To = std::decay_t<decltype(dst)>;
      if constexpr (std::is_same_v<typename From::Scalar, typename To::Scalar>)
        launch(convert_kernel<From, To>, {src.n, kThreads, kThreads}, stream, src, dst);
    });
  });
}

}  // namespace coalesce::gpu
