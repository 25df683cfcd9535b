// The exact reference of the tree (kernels/tree.h): each target's acceleration from all n bodies in double,
// one block per target, every thread a fixed stride of the bodies, then a fixed tree of sums, so the same
// state gives the same bits.
#include <type_traits>

#include "kernels/launch.h"
#include "kernels/tree.h"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 256;

template <class View>
__global__ void __launch_bounds__(kThreads)
    direct_kernel(View view, const int* targets, double* out, double eps2) {
  __shared__ double sums[3][kThreads];
  const auto pi = view.position(targets[blockIdx.x]);
  const double xi = pi.x, yi = pi.y, zi = pi.z;
  double a[3] = {0, 0, 0};
  for (int j = threadIdx.x; j < view.n; j += kThreads) {
    const auto pj = view.position_mass(j);
    const double dx = double(pj.x) - xi, dy = double(pj.y) - yi, dz = double(pj.z) - zi;
    const double r2 = dx * dx + dy * dy + dz * dz + eps2;
    const double s = double(pj.w) / (r2 * sqrt(r2));  // correctly rounded sqrt and division: a reference
    a[0] += dx * s;
    a[1] += dy * s;
    a[2] += dz * s;
  }
  for (int c = 0; c < 3; ++c) sums[c][threadIdx.x] = a[c];
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (static_cast<int>(threadIdx.x) < half)
      for (int c = 0; c < 3; ++c) sums[c][threadIdx.x] += sums[c][threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x < 3) out[3LL * blockIdx.x + threadIdx.x] = sums[threadIdx.x][0];
}

}  // namespace

void direct_accelerations(const StateViews& state, const int* targets, int count, double* out, double eps2,
                          cudaStream_t stream) {
  with_view(state, [&](const auto& view) {
    using View = std::decay_t<decltype(view)>;
    launch(direct_kernel<View>, LaunchGrid{static_cast<unsigned>(count), kThreads}, stream, view, targets, out,
           eps2);
  });
}

}  // namespace coalesce::gpu
