// Drift (x += v dt), one particle per thread (two for fp64 vectors, below): the memory-bound update the
// articles measure. Built with -fmad=false (kernels/CMakeLists.txt) so x + v*dt rounds twice, exactly like
// the CPU: bitwise equal results.
#include <type_traits>

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

// The vector layout in fp64. A double4_32a is two 128-bit loads on sm_90, so one thread per particle makes
// each load and store instruction of a warp touch every other 16 bytes of its 1 KiB span (92.9% of copy at
// 16M on an H200, docs/perf.md). Two threads per particle, each moving one 16-byte half (x, y or z, mass),
// make every instruction one contiguous 512-byte span. The same operations as drift(): bitwise equal.
using Float4Fp64View = LayoutView<Layout::Float4, double>;

__global__ void __launch_bounds__(kThreads) drift_halves_kernel(Float4Fp64View view, double dt) {
  const long long index = global_thread_index();
  if (index >= 2LL * view.n) return;
  const bool first_half = (index & 1) == 0;
  double2* positions = reinterpret_cast<double2*>(view.pos_mass);
  const double2* velocities = reinterpret_cast<const double2*>(view.vel);
  double2 p = positions[index];
  const double2 v = velocities[index];
  p.x = p.x + v.x * dt;                     // x, or z
  if (first_half) p.y = p.y + v.y * dt;     // y; the second half's y is the mass, which stays
  positions[index] = p;
}

}  // namespace

void drift(const StateViews& state, BodyRange bodies, double dt, cudaStream_t stream) {
  with_view(state, [&](const auto& whole) {
    using View = std::decay_t<decltype(whole)>;
    const View view = whole.slice(bodies.begin, bodies.end - bodies.begin);
    if constexpr (std::is_same_v<View, Float4Fp64View>)
      launch(drift_halves_kernel, {2LL * view.n, kThreads, kThreads}, stream, view, dt);
    else
      launch(drift_kernel<View>, {view.n, kThreads, kThreads}, stream, view,
             static_cast<typename View::Scalar>(dt));
  });
}

}  // namespace coalesce::gpu
