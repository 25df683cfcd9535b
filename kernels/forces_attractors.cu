// Attractor kick: one particle per thread, memory-bound (O(N k), k <= 16). The attractor snapshot is a
// __grid_constant__ kernel parameter: read from the constant bank, with no per-thread copy to local memory.
#include <type_traits>

#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;

template <class View>
__global__ void __launch_bounds__(kThreads)
    attractor_kick_kernel(View view, const __grid_constant__ AttractorSnapshotT<typename View::Scalar> snapshot,
                          typename View::Scalar eps2, typename View::Scalar dt) {
  const long long index = global_thread_index();
  if (index >= view.n) return;
  const int i = static_cast<int>(index);
  const auto acc = attractor_acceleration(snapshot, view.position(i), eps2);
  view.set_velocity(i, kick(view.velocity(i), acc, dt));
}

}  // namespace

void attractor_kick(const StateViews& state, BodyRange bodies, const SimParams& params, double time,
                    cudaStream_t stream) {
  with_view(state, [&](const auto& whole) {
    using View = std::decay_t<decltype(whole)>;
    const View view = whole.slice(bodies.begin, bodies.end - bodies.begin);
    using Real = typename View::Scalar;
    // Positions computed once per step on the host, exactly as the CPU backend does.
    const auto snapshot = snapshot_attractors(params.attractors, static_cast<Real>(time));
    launch(attractor_kick_kernel<View>, {view.n, kThreads, kThreads}, stream, view, snapshot,
           softening_squared<Real>(params), time_step<Real>(params));
  });
}

}  // namespace coalesce::gpu
