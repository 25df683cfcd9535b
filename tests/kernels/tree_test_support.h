// The GPU tree tests' shared helpers (tests/kernels/tree_test.cpp, tree_order_test.cpp): states uploaded in
// any layout and precision, the tree's and the float64 direct sum's accelerations, and error percentiles.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"
#include "kernels/tree.h"
#include "sim/scene.h"
#include "tests/support/test_random.h"
#include "tests/support/test_scene.h"

namespace coalesce::testing::tree {

// A state on the device in one layout and precision, from float particles.
struct DeviceState {
  DeviceBuffer<std::byte> buffer;
  StateViews views;
};

inline DeviceState upload(const std::vector<Particle>& bodies, Layout layout, Precision precision) {
  const int n = static_cast<int>(bodies.size());
  std::vector<std::byte> host(std::max<std::size_t>(1, state_bytes(layout, precision, n)));
  with_format(layout, precision, [&](auto format) {
    using View = decltype(format);
    using Real = typename View::Scalar;
    const View view = View::over(host.data(), n);
    for (int i = 0; i < n; ++i) {
      const Particle& p = bodies[static_cast<std::size_t>(i)];
      view.store(i, {Real(p.x), Real(p.y), Real(p.z), Real(p.vx), Real(p.vy), Real(p.vz), Real(p.mass)});
    }
  });
  DeviceState state{DeviceBuffer<std::byte>(host.size()), {}};
  COALESCE_CUDA_CHECK(cudaMemcpy(state.buffer.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
  state.views = make_state_views(layout, precision, state.buffer.data(), n);
  return state;
}

inline std::vector<std::byte> download(const DeviceState& state) {
  std::vector<std::byte> host(state.buffer.size());
  COALESCE_CUDA_CHECK(cudaMemcpy(host.data(), state.buffer.data(), host.size(), cudaMemcpyDeviceToHost));
  return host;
}

using testing::scene_bodies;

inline DeviceBuffer<int> all_targets(int n) {
  std::vector<int> host(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = i;
  DeviceBuffer<int> targets(host.size());
  if (n > 0)
    COALESCE_CUDA_CHECK(
        cudaMemcpy(targets.data(), host.data(), host.size() * sizeof(int), cudaMemcpyHostToDevice));
  return targets;
}

inline std::vector<double> to_host(const DeviceBuffer<double>& device) {
  std::vector<double> host(device.size());
  if (!host.empty())
    COALESCE_CUDA_CHECK(cudaMemcpy(host.data(), device.data(), device.bytes(), cudaMemcpyDeviceToHost));
  return host;
}

inline std::vector<double> tree_accelerations(gpu::GpuTree& tree, const DeviceState& state,
                                              const SimParams& params) {
  const int n = state.views.n;
  DeviceBuffer<int> targets = all_targets(n);
  DeviceBuffer<double> out(3 * static_cast<std::size_t>(n));
  tree.accelerations(state.views, targets.data(), n, out.data(), params, nullptr);
  return to_host(out);
}

// eps^2 as the state's precision rounds it, widened: what the tree's pairs use.
inline double state_eps2(const SimParams& params, Precision precision) {
  return precision == Precision::Fp32 ? double(softening_squared<float>(params))
                                      : softening_squared<double>(params);
}

inline std::vector<double> direct(const DeviceState& state, double eps2) {
  const int n = state.views.n;
  DeviceBuffer<int> targets = all_targets(n);
  DeviceBuffer<double> out(3 * static_cast<std::size_t>(n));
  gpu::direct_accelerations(state.views, targets.data(), n, out.data(), eps2, nullptr);
  return to_host(out);
}

// |a - exact| / |exact| of every target, sorted.
inline std::vector<double> sorted_errors(const std::vector<double>& got, const std::vector<double>& exact) {
  std::vector<double> e(got.size() / 3);
  for (std::size_t i = 0; i < e.size(); ++i) {
    double d2 = 0, x2 = 0;
    for (std::size_t c = 0; c < 3; ++c) {
      const double d = got[3 * i + c] - exact[3 * i + c];
      d2 += d * d;
      x2 += exact[3 * i + c] * exact[3 * i + c];
    }
    e[i] = std::sqrt(d2 / x2);
  }
  std::sort(e.begin(), e.end());
  return e;
}

inline double percentile(const std::vector<double>& sorted, double p) {
  return sorted[static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1))];
}

// A group size the GPU walk takes: 1..32 (one target a lane), or 64 (two a lane) a quarter of the time.
inline int random_group_size(testing::TestRng& rng) {
  return rng.uniform_int(0, 3) == 0 ? 64 : rng.uniform_int(1, 32);
}

inline const char* name_of(Precision p) {
  return p == Precision::Fp32 ? "fp32" : "fp64";
}
inline const char* name_of(Layout l) {
  return l == Layout::AoS ? "AoS" : l == Layout::SoA ? "SoA" : "Float4";
}

}  // namespace coalesce::testing::tree
