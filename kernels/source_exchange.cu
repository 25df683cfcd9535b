// What ranks exchange each step: {x, y, z, m} of their bodies as the force tiles' vector (Vec4T<Real>), out of
// and into any layout, one thread per body.
#include <type_traits>

#include "kernels/kernels.h"
#include "kernels/launch.h"
#include "kernels/particle_access.cuh"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;

template <class View>
__global__ void __launch_bounds__(kThreads)
    export_kernel(View bodies, int first, Vec4T<typename View::Scalar>* out) {
  const long long index = global_thread_index();
  if (index >= bodies.n) return;
  const int i = static_cast<int>(index);
  out[first + i] = bodies.position_mass(i);
}

template <class View>
__global__ void __launch_bounds__(kThreads)
    import_kernel(View bodies, int first, const Vec4T<typename View::Scalar>* in) {
  const long long index = global_thread_index();
  if (index >= bodies.n) return;
  const int i = static_cast<int>(index);
  bodies.set_position_mass(i, in[first + i]);
}

}  // namespace

void export_sources(const StateViews& state, BodyRange bodies, void* out, cudaStream_t stream) {
  with_view(state, [&](const auto& whole) {
    using View = std::decay_t<decltype(whole)>;
    const View view = whole.slice(bodies.begin, bodies.end - bodies.begin);
    launch(export_kernel<View>, {view.n, kThreads, kThreads}, stream, view, bodies.begin,
           static_cast<Vec4T<typename View::Scalar>*>(out));
  });
}

void import_sources(const StateViews& state, BodyRange bodies, const void* in, cudaStream_t stream) {
  with_view(state, [&](const auto& whole) {
    using View = std::decay_t<decltype(whole)>;
    const View view = whole.slice(bodies.begin, bodies.end - bodies.begin);
    launch(import_kernel<View>, {view.n, kThreads, kThreads}, stream, view, bodies.begin,
           static_cast<const Vec4T<typename View::Scalar>*>(in));
  });
}

}  // namespace coalesce::gpu
