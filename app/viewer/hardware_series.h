// The hardware counters' side of the panel and the screenshot JSON (issue 11): the sampler's DRAM
// throughput and clocks, and the kernels' computed GB/s, on one time axis (the viewer's clock, seconds).
// Rings for the plot; summaries over every sample for the report. No ImGui and no CUDA: unit-tested.
#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/device_report.h"  // clock_off_maximum
#include "kernels/counters/hardware_counters.h"
#include "kernels/counters/summary.h"
#include "sim/layout.h"

namespace coalesce {

// One frame: the layout that ran, and the computed GB/s of the kernel timings read in it, if any.
struct ComputedPoint {
  double seconds = 0.0;
  Layout layout = Layout::AoS;
  std::optional<double> gigabytes_per_second;
  double formula_bytes = 0.0;  // the formula bytes of the kernel timings read in this frame
};

// One hardware sample on the viewer's clock, with what the frames in its interval computed.
struct HardwarePoint {
  double start_seconds = 0.0;  // the previous sample's end (the first: end - interval)
  double end_seconds = 0.0;
  double dram_read_gigabytes_per_second = 0.0;
  double dram_write_gigabytes_per_second = 0.0;
  double sm_clock_mhz = 0.0;
  double dram_clock_mhz = 0.0;
  std::optional<Layout> layout;  // the one layout every frame in the interval ran; none when it changed
  std::optional<double> computed_gigabytes_per_second;  // mean of the interval's computed points
  long frames = 0;             // frames in the interval
  double formula_bytes = 0.0;  // their kernels' formula bytes, summed
  double dram_gigabytes_per_second() const {
    return dram_read_gigabytes_per_second + dram_write_gigabytes_per_second;
  }
  // Per frame, both sides in MB: what DRAM moved in the interval (every kernel and the draw) and what the
  // kernels' formulas say must move. Unlike the rates, neither depends on how busy the GPU was, so a
  // layout switch moves each by what the layout costs (docs/viewer.md, "Hardware counters").
  std::optional<double> hardware_megabytes_per_frame() const {
    if (frames <= 0) return std::nullopt;
    return dram_gigabytes_per_second() * (end_seconds - start_seconds) * 1e3 / static_cast<double>(frames);
  }
  std::optional<double> formula_megabytes_per_frame() const {
    if (frames <= 0 || formula_bytes <= 0) return std::nullopt;
    return formula_bytes * 1e-6 / static_cast<double>(frames);
  }
};

// A clock measured over the run against its maximum from the device facts (0: unknown).
struct ClockReport {
  Summary mhz;
  double maximum_mhz = 0.0;
};

// The note for a clock whose average is off its maximum (clock_off_maximum); "" otherwise.
std::string clock_note(const std::string& name, const ClockReport& clock);

class HardwareSeries {
 public:
  HardwareSeries(double interval_ms, double sm_maximum_mhz, double dram_maximum_mhz,
                 std::size_t hardware_capacity = 1024, std::size_t computed_capacity = 16384);

  // Frames first, then the samples they cover: a sample takes the frames whose time is in its interval.
  void add_frame(const ComputedPoint& frame);
  // `offset`: the viewer's clock when the sampler's clock started.
  void add_sample(const HardwareSample& sample, double offset);
  // The per-layout summaries start afresh (a new N, scene or solver), as Compare does.
  void reset_layouts();

  const std::deque<HardwarePoint>& hardware() const { return m_hardware; }
  const std::deque<ComputedPoint>& computed() const { return m_computed; }
  double interval_ms() const { return m_interval_ms; }
  long samples() const { return m_dram.count; }
  const Summary& dram() const { return m_dram; }  // read + write, GB/s, every sample
  const Summary& dram_read() const { return m_dram_read; }
  const Summary& dram_write() const { return m_dram_write; }
  const ClockReport& sm_clock() const { return m_sm; }
  const ClockReport& dram_clock() const { return m_dram_clock; }
  std::vector<std::string> clock_notes() const;  // one per clock off its maximum; empty when both agree
  // Samples whose interval ran one layout: hardware DRAM GB/s and the computed GB/s beside it.
  struct LayoutSummary {
    Summary dram;
    Summary computed;
    Summary hardware_megabytes_per_frame;
    Summary formula_megabytes_per_frame;
  };
  const LayoutSummary& layout_summary(Layout layout) const { return m_layouts[static_cast<int>(layout)]; }

 private:
  double m_interval_ms;
  std::size_t m_hardware_capacity;
  std::size_t m_computed_capacity;
  std::deque<HardwarePoint> m_hardware;
  std::deque<ComputedPoint> m_computed;
  Summary m_dram, m_dram_read, m_dram_write;
  ClockReport m_sm, m_dram_clock;
  std::array<LayoutSummary, kLayoutCount> m_layouts{};
};

}  // namespace coalesce
