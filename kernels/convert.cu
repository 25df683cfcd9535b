// Layout conversion on the device: one particle per thread, a pure copy of the seven floats (bitwise).
#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;

template <class From, class To>
__global__ void __launch_bounds__(kThreads) convert_kernel(From from, To to) {
  const long long index = global_thread_index();
  if (index >= from.n) return;
  const int i = static_cast<int>(index);
  to.store(i, load_particle(from, i));
}

}  // namespace

void convert(const StateViews& from, const StateViews& to, cudaStream_t stream) {
  with_view(from, [&](const auto& src) {
    with_view(to, [&](const auto& dst) {
      using From = std::decay_t<decltype(src)>;
      using To = std::decay_t<decltype(dst)>;
      launch(convert_kernel<From, To>, {src.n, kThreads, kThreads}, stream, src, dst);
    });
  });
}

}  // namespace coalesce::gpu
