// Smoothing and bookkeeping of the panel's numbers.
#include "app/viewer/viewer_stats.h"
#include "sim/force_method.h"

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace coalesce {
namespace {
template <typename T>
void push_history(std::deque<float>& history, T value) {
  history.push_back(static_cast<float>(value));
  while (history.size() > static_cast<size_t>(kHistoryLength)) history.pop_front();
}
}  // namespace

KernelMetric headline_metric(KernelKind kind, ForceMethod method) {
  return kind == KernelKind::Forces && method_info(method).compute_bound ? KernelMetric::InteractionsPerSecond
                                                                         : KernelMetric::GigabytesPerSecond;
}

const char* to_string(KernelMetric metric) {
  return metric == KernelMetric::InteractionsPerSecond ? "interactions_per_second" : "gigabytes_per_second";
}

namespace {

// The formula bytes and GPU milliseconds of the timings in `layout` and `precision` whose headline is GB/s.
std::pair<double, double> bytes_and_milliseconds(const std::vector<KernelTiming>& timings, Layout layout,
                                                 Precision precision, ForceMethod method) {
  double bytes = 0.0;
  double milliseconds = 0.0;
  for (const KernelTiming& t : timings) {
    if (t.layout != layout || t.precision != precision || t.milliseconds <= 0) continue;
    if (headline_metric(t.kernel, method) != KernelMetric::GigabytesPerSecond) continue;
    bytes += t.bytes;
    milliseconds += t.milliseconds;
  }
  return {bytes, milliseconds};
}

}  // namespace

std::optional<double> combined_gigabytes_per_second(const std::vector<KernelTiming>& timings, Layout layout,
                                                    Precision precision, ForceMethod method) {
  const auto [bytes, milliseconds] = bytes_and_milliseconds(timings, layout, precision, method);
  if (milliseconds <= 0) return std::nullopt;
  return bytes / (milliseconds * 1e6);
}

double combined_formula_bytes(const std::vector<KernelTiming>& timings, Layout layout, Precision precision,
                              double* scratch) {
  double bytes = 0.0, partial = 0.0;
  for (const KernelTiming& t : timings) {
    if (t.layout != layout || t.precision != precision) continue;
    bytes += t.bytes;
    partial += t.scratch_bytes;
  }
  if (scratch) *scratch = partial;
  return bytes;
}

void ViewerStats::add(const std::vector<KernelTiming>& timings, Layout layout, Precision precision) {
  for (const KernelTiming& t : timings) {
    const int k = static_cast<int>(t.kernel);
    if (k < 0 || k >= kKernelKinds || t.milliseconds <= 0) continue;
    // Compare takes every timing by the layout and precision it ran in: GPU timings arrive a frame or two
    // late.
    CompareEntry& c = m_compare[static_cast<int>(t.precision)][static_cast<int>(t.layout)][k];
    c.milliseconds_ema.add(t.milliseconds);
    c.gigabytes_per_second_ema.add(t.gigabytes_per_second());
    c.interactions_per_second_ema.add(t.interactions_per_second());
    c.milliseconds = c.milliseconds_ema.value();
    c.gigabytes_per_second = c.gigabytes_per_second_ema.value();
    c.interactions_per_second = c.interactions_per_second_ema.value();
    c.measured = true;
    if (t.layout != layout || t.precision != precision) continue;
    KernelStats& s = m_kernels[k];
    s.milliseconds.add(t.milliseconds);
    s.gigabytes_per_second.add(t.gigabytes_per_second());
    s.interactions_per_second.add(t.interactions_per_second());
    s.bytes = t.bytes;
    s.scratch_bytes = t.scratch_bytes;
    s.scratch_what = t.scratch_what;
    push_history(s.history_gbps, s.gigabytes_per_second.value());
    push_history(s.history_interactions, s.interactions_per_second.value());
  }
}

bool ViewerStats::measured(Precision precision) const {
  for (const auto& kernels : m_compare[static_cast<int>(precision)])
    for (const CompareEntry& c : kernels)
      if (c.measured) return true;
  return false;
}

void ViewerStats::restart_live() {
  for (KernelStats& s : m_kernels) {
    s.milliseconds.reset();
    s.gigabytes_per_second.reset();
    s.interactions_per_second.reset();
    s.history_gbps.clear();
    s.history_interactions.clear();
  }
}

void ViewerStats::reset_all() {
  restart_live();
  m_compare = {};
}

void FrameStats::add(double frame, double simulation, double upload, double render) {
  frame_ms.add(frame);
  simulation_ms.add(simulation);
  upload_ms.add(upload);
  render_cpu_ms.add(render);
  push_history(history_frame_ms, frame);
  ++frames;
}

double FrameStats::median_frame_ms() const {
  if (history_frame_ms.empty()) return 0.0;
  std::vector<float> sorted(history_frame_ms.begin(), history_frame_ms.end());
  const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
  std::nth_element(sorted.begin(), middle, sorted.end());
  return *middle;
}

InteropCost interop_cost(const FrameStats& frames, const KernelStats& pack, bool pack_on_gpu) {
  InteropCost cost;
  cost.milliseconds =
      frames.upload_ms.value() + (pack_on_gpu && pack.seen() ? pack.milliseconds.value() : 0.0);
  cost.share_of_frame = frames.frame_ms.value() > 0 ? cost.milliseconds / frames.frame_ms.value() : 0.0;
  return cost;
}

}  // namespace coalesce
