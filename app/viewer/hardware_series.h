// The hardware counters' side of the panel and the screenshot JSON (issues 11, 20): the sampler's DRAM
// throughput and clocks, and the kernels' computed GB/s, on one time axis (the viewer's clock, seconds).
// Rings for the plot; summaries over every measured sample for the report; each sample attributed to the
// layout and precision whose frames filled most of its interval. No ImGui and no CUDA: unit-tested.
#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/services/device_report.h"  // clock_off_maximum
#include "kernels/counters/hardware_counters.h"
#include "kernels/counters/summary.h"
#include "sim/layout.h"
#include "sim/precision.h"

namespace coalesce {

// One frame: the layout and precision that ran, and the computed GB/s of the kernel timings read in it, if
// any.
struct ComputedPoint {
  double seconds = 0.0;  // when its timings were read: the frame covers (start_seconds, seconds]
  Layout layout = Layout::AoS;
  std::optional<double> gigabytes_per_second;
  double formula_bytes = 0.0;  // the formula bytes of the kernel timings read in this frame
  double start_seconds = 0.0;  // set by HardwareSeries::add_frame: the previous frame's time
  Precision precision = Precision::Fp32;
  double scratch_bytes = 0.0;  // of formula_bytes, the partial sums written and read back (KernelTiming)
};

// One hardware sample on the viewer's clock, with what the frames in its interval computed.
struct HardwarePoint {
  double start_seconds = 0.0;  // the previous sample's end (the first: end - interval)
  double end_seconds = 0.0;
  double dram_read_gigabytes_per_second = 0.0;
  double dram_write_gigabytes_per_second = 0.0;
  double sm_clock_mhz = 0.0;
  double dram_clock_mhz = 0.0;
  // The layout and precision whose frames covered most (over half) of the interval; none when no pair did.
  std::optional<Layout> layout;
  Precision precision = Precision::Fp32;  // with a layout: the precision its frames ran in
  double layout_share = 0.0;  // the share of the interval its frames covered; 0 without a layout
  // Mean of the computed GB/s of the frames in the interval, each weighted by its time inside: the
  // layout's frames when the sample has a layout, else every frame.
  std::optional<double> computed_gigabytes_per_second;
  double frames = 0.0;         // frames in the interval, each counted by the share of it inside
  double formula_bytes = 0.0;  // their kernels' formula bytes, counted the same way
  double scratch_bytes = 0.0;  // of those, the partial sums written and read back
  // A sample that covers no time, or whose clock counters read 0 (the sampler's first samples), measured
  // nothing: it is plotted as a gap and left out of every summary.
  // The H200's first samples read clocks of about 1e-7 MHz, not 0: no GPU clocks below 1 MHz, so such a
  // sample measured nothing.
  static constexpr double kMinClockMhz = 1.0;
  bool measured() const {
    return end_seconds > start_seconds && sm_clock_mhz >= kMinClockMhz && dram_clock_mhz >= kMinClockMhz;
  }
  double dram_gigabytes_per_second() const {
    return dram_read_gigabytes_per_second + dram_write_gigabytes_per_second;
  }
  double dram_bytes() const { return dram_gigabytes_per_second() * 1e9 * (end_seconds - start_seconds); }
  // Per frame, both sides in MB: what DRAM moved in the interval (every kernel and the draw) and what the
  // kernels' formulas say must move. Unlike the rates, neither depends on how busy the GPU was, so a
  // layout switch moves each by what the layout costs (docs/viewer.md, "Hardware counters").
  std::optional<double> hardware_megabytes_per_frame() const {
    if (frames <= 0) return std::nullopt;
    return dram_bytes() * 1e-6 / frames;
  }
  std::optional<double> formula_megabytes_per_frame() const {
    if (frames <= 0 || formula_bytes <= 0) return std::nullopt;
    return formula_bytes * 1e-6 / frames;
  }
  std::optional<double> scratch_megabytes_per_frame() const {
    if (frames <= 0 || formula_bytes <= 0) return std::nullopt;
    return scratch_bytes * 1e-6 / frames;
  }
};

// What most of a frame's DRAM bytes are, from the three parts the numbers tell apart: the formulas' partial
// sums, the formulas' state bytes, and the DRAM beyond every formula (the draw, the panel, the sectors a
// layout wastes). One line that names the largest with its MB; "" when DRAM or the formulas are unknown.
std::string per_frame_note(double dram_megabytes, double formula_megabytes, double scratch_megabytes);

// A clock over a run, as the work saw it: every measured sample in `mhz`, and a mean in which each
// weighs by the DRAM bytes its interval moved, so an idle stretch at a low clock weighs next to nothing.
struct ClockReport {
  Summary mhz;
  double weighted_mhz = 0.0;  // sum of clock x bytes
  double weight = 0.0;        // sum of bytes
  double maximum_mhz = 0.0;   // from the device facts; 0: unknown
  void add(double sample_mhz, double dram_bytes);
  // The DRAM-weighted mean; none when no measured sample moved a byte.
  std::optional<double> busy_mhz() const;
};

// The note for a clock whose DRAM-weighted mean is off its maximum (clock_off_maximum); "" otherwise.
std::string clock_note(const std::string& name, const ClockReport& clock);
// The rule over a run's samples (issue 20): the SM and memory clocks' notes, measured samples only,
// each weighted by its DRAM bytes. HardwareSeries keeps the same reports as samples arrive.
std::vector<std::string> clock_notes(const std::vector<HardwarePoint>& samples, double sm_maximum_mhz,
                                     double dram_maximum_mhz);

class HardwareSeries {
 public:
  HardwareSeries(double interval_ms, double sm_maximum_mhz, double dram_maximum_mhz,
                 std::size_t hardware_capacity = 1024, std::size_t computed_capacity = 16384);

  // Frames first, then the samples they cover: a frame covers the time since the previous one, and a
  // sample takes the frames that overlap its interval, each by its time inside.
  void add_frame(const ComputedPoint& frame);
  // `offset`: the viewer's clock when the sampler's clock started.
  void add_sample(const HardwareSample& sample, double offset);
  // The per-layout summaries (of every precision) start afresh (a new N, scene or solver), as Compare does.
  void reset_layouts();

  const std::deque<HardwarePoint>& hardware() const { return m_hardware; }
  const std::deque<ComputedPoint>& computed() const { return m_computed; }
  double interval_ms() const { return m_interval_ms; }
  long samples() const { return m_samples; }  // every sample received, measured or not
  long unmeasured_samples() const { return m_samples - m_dram.count; }
  const Summary& dram() const { return m_dram; }  // read + write, GB/s, every measured sample
  const Summary& dram_read() const { return m_dram_read; }
  const Summary& dram_write() const { return m_dram_write; }
  const ClockReport& sm_clock() const { return m_sm; }
  const ClockReport& dram_clock() const { return m_dram_clock; }
  std::vector<std::string> clock_notes() const;  // one per clock off its maximum; empty when both agree
  // Measured samples that were mostly one layout's in one precision: hardware DRAM GB/s and the computed
  // GB/s beside it; and how long the pair ran (its frames' time), for saying why one that ran has no sample.
  struct LayoutSummary {
    Summary dram;
    Summary computed;
    Summary hardware_megabytes_per_frame;
    Summary formula_megabytes_per_frame;
    double seconds_run = 0.0;
    std::optional<double> first_frame_start;  // when its first frame began
  };
  const LayoutSummary& layout_summary(Layout layout, Precision precision) const {
    return m_layouts[run_index(layout, precision)];
  }
  // Why a layout that ran in `precision` has no sample ("ran 35 ms, shorter than one 50 ms sample"); ""
  // when it has one or never ran.
  std::string unsampled_note(Layout layout, Precision precision) const;

 private:
  void attribute(HardwarePoint& p) const;
  static constexpr std::size_t kRuns = kLayoutCount * kPrecisionCount;  // (layout, precision) pairs
  static std::size_t run_index(Layout layout, Precision precision) {
    return static_cast<std::size_t>(precision) * kLayoutCount + static_cast<std::size_t>(layout);
  }

  double m_interval_ms;
  std::size_t m_hardware_capacity;
  std::size_t m_computed_capacity;
  std::deque<HardwarePoint> m_hardware;
  std::deque<ComputedPoint> m_computed;
  std::optional<double> m_last_frame;  // kept across a ring that dropped it
  long m_samples = 0;
  Summary m_dram, m_dram_read, m_dram_write;
  ClockReport m_sm, m_dram_clock;
  std::array<LayoutSummary, kRuns> m_layouts{};
};

}  // namespace coalesce
