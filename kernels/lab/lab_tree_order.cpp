// The tree-order experiment (docs/lab.md): the GPU tree's walk over the galaxies (fp32) with its sorted copy
// in curve or random order and its target groups in curve or particle order (TreeSettings' orders); each row
// is checked against the float64 direct sum, and a shuffled row must give its curve twin's bits.
#include "kernels/lab/lab_tree_order.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_timing.h"
#include "kernels/tree.h"
#include "kernels/tree_nodes.h"
#include "sim/layout_storage.h"
#include "sim/scene.h"

namespace coalesce::lab {
namespace {

constexpr int kCheckTargets = 1024;
// The GPU tree tests' bound on the 99th-percentile error at theta 0.3 (tests/kernels/tree_test.cpp); the
// rows walk at the default theta (sim/tree_settings.h).
constexpr double kErrorBound = 1.5e-3;

struct DeviceState {
  DeviceBuffer<std::byte> buffer;
  StateViews views;
};

DeviceState upload(const std::vector<Particle>& bodies, Layout layout) {
  const int n = static_cast<int>(bodies.size());
  std::vector<std::byte> host(state_bytes(layout, Precision::Fp32, n));
  with_format(layout, Precision::Fp32, [&](auto format) {
    using View = decltype(format);
    if constexpr (std::is_same_v<typename View::Scalar, float>) {  // the one precision dispatched
      const View view = View::over(host.data(), n);
      for (int i = 0; i < n; ++i) view.store(i, bodies[static_cast<std::size_t>(i)]);
    }
  });
  DeviceState state{DeviceBuffer<std::byte>(host.size()), {}};
  COALESCE_CUDA_CHECK(cudaMemcpy(state.buffer.data(), host.data(), host.size(), cudaMemcpyHostToDevice));
  state.views = make_state_views(layout, Precision::Fp32, state.buffer.data(), n);
  return state;
}

std::vector<double> to_host(const DeviceBuffer<double>& device) {
  std::vector<double> host(device.size());
  COALESCE_CUDA_CHECK(cudaMemcpy(host.data(), device.data(), device.bytes(), cudaMemcpyDeviceToHost));
  return host;
}

// The 99th percentile of |a - exact| / |exact| over the checked targets; infinity if any is not finite.
double error_p99(const std::vector<double>& got, const std::vector<double>& exact) {
  std::vector<double> e(got.size() / 3);
  for (std::size_t i = 0; i < e.size(); ++i) {
    double d2 = 0, x2 = 0;
    for (std::size_t c = 3 * i; c < 3 * i + 3; ++c) {
      d2 += (got[c] - exact[c]) * (got[c] - exact[c]);
      x2 += exact[c] * exact[c];
    }
    e[i] = std::sqrt(d2 / x2);
    if (!std::isfinite(e[i])) return INFINITY;
  }
  std::sort(e.begin(), e.end());
  return e[static_cast<std::size_t>(0.99 * static_cast<double>(e.size() - 1))];
}

std::string text(const char* format, double a, double b = 0, double c = 0, double d = 0) {
  char out[200];
  std::snprintf(out, sizeof out, format, a, b, c, d);
  return out;
}

bool same_layout_and_targets(const TreeOrderCase& a, const TreeOrderCase& b) {
  return a.layout == b.layout && a.targets == b.targets;
}

}  // namespace

std::vector<LabRow> run_tree_order_experiment(const LabContext& context) {
  const int n = std::max(1, tree_order_bodies(context.settings.side));
  Scene scene = preset_scene("galaxies");
  scene.particles = n;
  scene.seed = context.settings.seed;
  const std::vector<Particle> bodies = generate_initial_state(scene);
  const SimParams& params = scene.params;
  std::mt19937 pick(context.settings.seed);
  std::vector<int> host_targets(static_cast<std::size_t>(std::min(kCheckTargets, n)));
  for (int& t : host_targets) t = static_cast<int>(pick() % static_cast<unsigned>(n));
  const int count = static_cast<int>(host_targets.size());
  DeviceBuffer<int> targets(host_targets.size());
  COALESCE_CUDA_CHECK(
      cudaMemcpy(targets.data(), host_targets.data(), targets.bytes(), cudaMemcpyHostToDevice));
  DeviceBuffer<double> out(3 * host_targets.size());
  // A walk takes milliseconds: a few calls warm it up (the lab's 30 are for microsecond kernels), and the
  // particle-order rows' long walks keep the repeats few.
  LabContext walk = context;
  walk.settings.warmup_calls = std::min(context.settings.warmup_calls, 3);
  walk.settings.repeats = std::min(context.settings.repeats, 10);

  std::vector<double> exact;  // every layout holds the same fp32 values: one reference
  struct Done {
    TreeOrderCase c;
    std::vector<double> accelerations;
    double ms;
  };
  std::vector<Done> done;
  std::vector<LabRow> rows;
  gpu::GpuTree tree;  // one tree: its buffers and shuffled slots are kept between rows
  Layout uploaded = tree_order_cases().front().layout;
  DeviceState state = upload(bodies, uploaded);
  for (const TreeOrderCase& c : tree_order_cases()) {
    if (c.layout != uploaded) {
      state = upload(bodies, c.layout);
      uploaded = c.layout;
    }
    if (exact.empty()) {
      gpu::direct_accelerations(state.views, targets.data(), count, out.data(),
                                double(softening_squared<float>(params)), nullptr);
      exact = to_host(out);
    }
    TreeSettings settings;
    settings.source_order = c.sources;
    settings.target_order = c.targets;
    tree.build(state.views, settings, nullptr);
    tree.accelerations(state.views, targets.data(), count, out.data(), params, nullptr);
    Done row{c, to_host(out), 0};
    const double p99 = error_p99(row.accelerations, exact);
    bool ok = p99 <= kErrorBound;
    const Done* curve_twin = nullptr;  // the same walk with the copy in curve order: the same bits
    const Done* baseline = nullptr;    // curve and curve, in this layout
    for (const Done& d : done) {
      if (same_layout_and_targets(d.c, c) && d.c.sources == SourceOrder::Curve) curve_twin = &d;
      if (d.c.layout == c.layout && d.c.sources == SourceOrder::Curve && d.c.targets == TargetOrder::Curve)
        baseline = &d;
    }
    if (c.sources == SourceOrder::Shuffled && curve_twin != nullptr)
      ok = ok && std::memcmp(row.accelerations.data(), curve_twin->accelerations.data(),
                             row.accelerations.size() * sizeof(double)) == 0;
    const TimedRow timed = timed_row([&] { tree.kick(state.views, {0, n}, params, nullptr); }, walk);
    TreeCounts counts;
    try {
      counts = tree.last_counts();
    } catch (const std::runtime_error&) {  // a walk out of its stack: the row is wrong, not the run
      ok = false;
    }
    row.ms = timed.ms;
    const double bytes = (counts.particle_particle * sizeof(Vec4T<float>) +
                          counts.particle_node * sizeof(gpu::WalkNode<float>)) /
                         settings.group_size;
    LabRow lab_row =
        make_row(context, "tree-order", tree_order_variant(c), timed, bytes, kTreeOrderFormula, "", ok);
    lab_row.note = text("%.0f pulls a target (%.0f body + %.0f node); error p99 %.1e",
                        (counts.particle_particle + counts.particle_node) / n, counts.particle_particle / n,
                        counts.particle_node / n, p99);
    if (baseline != nullptr) lab_row.note += text("; x%.2f the curve walk's time", timed.ms / baseline->ms);
    rows.push_back(lab_row);
    done.push_back(std::move(row));
  }
  return rows;
}

}  // namespace coalesce::lab
