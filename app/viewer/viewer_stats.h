// What the panel shows about kernels and frames: EMA-smoothed timings per kernel, short histories for
// the plots, and the Compare table of the last numbers per layout and precision (kept across switches).
#pragma once

#include <array>
#include <deque>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/force_method.h"
#include "sim/kernel_stats.h"
#include "sim/layout.h"
#include "sim/precision.h"

namespace coalesce {

// Exponential moving average; the first sample sets the value so start-up is not biased towards 0.
class Ema {
 public:
  explicit Ema(double alpha = 0.1) : m_alpha(alpha) {}
  void add(double sample) {
    m_value = m_count == 0 ? sample : m_value + m_alpha * (sample - m_value);
    ++m_count;
  }
  double value() const { return m_value; }
  long count() const { return m_count; }
  void reset() {
    m_value = 0;
    m_count = 0;
  }

 private:
  double m_alpha;
  double m_value = 0;
  long m_count = 0;
};

constexpr int kKernelKinds = 4;

// The figure that says how well a kernel does: GB/s for the memory-bound ones, interactions/s for the
// all-pairs forces, which move 48 N bytes for N^2 interactions (their GB/s is meaningless).
enum class KernelMetric { GigabytesPerSecond, InteractionsPerSecond };
KernelMetric headline_metric(KernelKind kind, ForceMethod method);
const char* to_string(KernelMetric metric);  // forces, integrate, pack, convert
// The running kernels' computed GB/s taken together: formula bytes over GPU time, summed over `timings`
// of `layout` and `precision` whose headline is GB/s; none when there are none. The hardware plot's
// computed line.
std::optional<double> combined_gigabytes_per_second(const std::vector<KernelTiming>& timings, Layout layout,
                                                    Precision precision, ForceMethod method);
// Every timing's formula bytes in `layout` and `precision`, the all-pairs forces' included (their partial
// sums can be most of a frame's bytes): what the frame's kernels must move, the hardware plot's per-frame
// line. `scratch` (when given) receives the part of them that is partial sums written and read back.
double combined_formula_bytes(const std::vector<KernelTiming>& timings, Layout layout, Precision precision,
                              double* scratch = nullptr);
constexpr int kHistoryLength = 240;

struct KernelStats {
  Ema milliseconds;
  Ema gigabytes_per_second;
  Ema interactions_per_second;
  double bytes = 0;                        // of the last launch: the byte formula's value
  double scratch_bytes = 0;                // of those, the partial sums written and read back (KernelTiming)
  std::string_view scratch_what;           // what that scratch is: "partial sums", "staged source rows"
  std::deque<float> history_gbps;          // smoothed GB/s, oldest first, for PlotLines
  std::deque<float> history_interactions;  // smoothed interactions/s (forces), for all-pairs' plot
  bool seen() const { return milliseconds.count() > 0; }
};

// One layout's smoothed numbers for one kernel in one precision, fed by every timing of that layout and
// precision, even late ones.
struct CompareEntry {
  Ema milliseconds_ema{0.2};
  Ema gigabytes_per_second_ema{0.2};
  Ema interactions_per_second_ema{0.2};
  double milliseconds = 0;
  double gigabytes_per_second = 0;
  double interactions_per_second = 0;
  bool measured = false;
};

class ViewerStats {
 public:
  // Adds timings from poll_timings(); those of the current layout and precision feed the live table.
  void add(const std::vector<KernelTiming>& timings, Layout layout, Precision precision);
  // A layout or precision switch starts the live numbers afresh; Compare keeps every row's last numbers.
  void restart_live();
  void reset_all();

  const KernelStats& kernel(KernelKind kind) const { return m_kernels[static_cast<int>(kind)]; }
  const CompareEntry& compare(Layout layout, Precision precision, KernelKind kind) const {
    return m_compare[static_cast<int>(precision)][static_cast<int>(layout)][static_cast<int>(kind)];
  }
  // Whether any kernel has run in `precision` since the last reset_all (Compare shows its rows then).
  bool measured(Precision precision) const;

 private:
  using LayoutRows = std::array<std::array<CompareEntry, kKernelKinds>, kLayoutCount>;
  std::array<KernelStats, kKernelKinds> m_kernels;
  std::array<LayoutRows, kPrecisionCount> m_compare{};
};

// Frame timing: wall time per frame, the CPU wall time of its simulation, upload and render steps, and
// the GPU time of the draw: the GL part (timer queries) and, on the splat path, the CUDA splat (events),
// both read a few frames late.
struct FrameStats {
  Ema frame_ms{0.05};
  Ema simulation_ms{0.05};  // CPU wall time: launches only, with the CUDA backend
  Ema upload_ms{0.05};      // CPU wall time: map + pack launch + unmap, or pack + glBufferSubData
  Ema render_cpu_ms{0.05};  // CPU wall time: issuing the draw, the panel and ImGui's draw lists
  Ema render_gpu_ms{0.05};  // GPU time of GL's part: particle pass + tone map, or the tone map alone (splat)
  Ema splat_gpu_ms{0.05};   // GPU time of the CUDA splat: clear, kernel, copy into the texture (events)
  std::deque<float> history_frame_ms;
  long frames = 0;
  double fps() const { return frame_ms.value() > 0 ? 1000.0 / frame_ms.value() : 0.0; }
  // The median of the history (the last kHistoryLength frames): the EMA starts at the first frame, whose
  // allocations and draw calibration weigh on it for about 60 frames; the median does not see them.
  double median_frame_ms() const;
  void add(double frame, double simulation, double upload, double render);
  void add_render_gpu(double milliseconds) { render_gpu_ms.add(milliseconds); }
  void add_splat_gpu(double milliseconds) { splat_gpu_ms.add(milliseconds); }
  // The whole draw on the GPU, on either path: GL's part plus the splat's (0 on the point path).
  double draw_gpu_ms() const { return render_gpu_ms.value() + splat_gpu_ms.value(); }
};

// The interop's cost per frame: map + unmap and the pack launch (CPU wall, upload_ms) plus the pack
// kernel's own GPU time when it runs on the GPU (on the CPU backend it is already inside upload_ms).
struct InteropCost {
  double milliseconds = 0;
  double share_of_frame = 0;
};
InteropCost interop_cost(const FrameStats& frames, const KernelStats& pack, bool pack_on_gpu);

}  // namespace coalesce
