// Drift (x += v dt), one particle per thread: the memory-bound update the articles measure. Built with
// -fmad=false (kernels/CMakeLists.txt) so x + v*dt rounds twice, exactly like the CPU: bitwise equal results.
#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;

template <class View>
__global__ void __launch_bounds__(kThreads) drift_kernel(View view, typename View::Scalar dt) {
  const long long index = global_thread_index();
  if (index >= view.n) return;
  const int i = static_cast<int>(index);
  // float4: one 16-byte load each of pos_mass and vel, one 16-byte store (mass rides along in w); fp64's
  // double4_32a: 32 bytes each.
  view.set_position(i, coalesce::drift(view.position(i), view.velocity(i), dt));
}

}  // namespace

void drift(const StateViews& state, float dt, cudaStream_t stream) {
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    launch(drift_kernel<View>, {view.n, kThreads, kThreads}, stream, view,
           static_cast<typename View::Scalar>(dt));
  });
}

}  // namespace coalesce::gpu
