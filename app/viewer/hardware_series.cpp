// The hardware series: rings for the plot, running summaries for the report, samples aligned with frames.
#include "app/viewer/hardware_series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace coalesce {

std::string clock_note(const std::string& name, const ClockReport& clock) {
  if (clock.mhz.count == 0) return "";
  const std::optional<double> off = clock_off_maximum(clock.mhz.mean(), clock.maximum_mhz);
  if (!off) return "";
  char text[200];
  std::snprintf(
      text, sizeof text, "%s clock averaged %.0f MHz, %.1f%% %s its maximum %.0f MHz: numbers are suspect",
      name.c_str(), clock.mhz.mean(), 100.0 * std::abs(*off), *off < 0 ? "below" : "above", clock.maximum_mhz);
  return text;
}

HardwareSeries::HardwareSeries(double interval_ms, double sm_maximum_mhz, double dram_maximum_mhz,
                               std::size_t hardware_capacity, std::size_t computed_capacity)
    : m_interval_ms(interval_ms),
      m_hardware_capacity(std::max<std::size_t>(1, hardware_capacity)),
      m_computed_capacity(std::max<std::size_t>(1, computed_capacity)) {
  m_sm.maximum_mhz = sm_maximum_mhz;
  m_dram_clock.maximum_mhz = dram_maximum_mhz;
}

void HardwareSeries::add_frame(const ComputedPoint& frame) {
  m_computed.push_back(frame);
  while (m_computed.size() > m_computed_capacity) m_computed.pop_front();
}

void HardwareSeries::add_sample(const HardwareSample& sample, double offset) {
  HardwarePoint p;
  p.end_seconds = sample.seconds + offset;
  p.start_seconds = m_hardware.empty() ? p.end_seconds - m_interval_ms * 1e-3 : m_hardware.back().end_seconds;
  p.dram_read_gigabytes_per_second = sample.dram_read_bytes_per_second * 1e-9;
  p.dram_write_gigabytes_per_second = sample.dram_write_bytes_per_second * 1e-9;
  p.sm_clock_mhz = sample.sm_clock_hz * 1e-6;
  p.dram_clock_mhz = sample.dram_clock_hz * 1e-6;
  // The frames in (start, end]; without any, the layout of the last frame before the interval ended.
  Summary computed;
  bool mixed = false;
  for (auto it = m_computed.rbegin(); it != m_computed.rend() && it->seconds > p.start_seconds; ++it) {
    if (it->seconds > p.end_seconds) continue;
    if (p.layout && *p.layout != it->layout) mixed = true;
    p.layout = it->layout;
    if (it->gigabytes_per_second) computed.add(*it->gigabytes_per_second);
    ++p.frames;
    p.formula_bytes += it->formula_bytes;
  }
  if (mixed) p.layout.reset();
  if (!mixed && !p.layout) {
    for (auto it = m_computed.rbegin(); it != m_computed.rend(); ++it)
      if (it->seconds <= p.end_seconds) {
        p.layout = it->layout;
        break;
      }
  }
  if (computed.count > 0) p.computed_gigabytes_per_second = computed.mean();

  m_dram.add(p.dram_gigabytes_per_second());
  m_dram_read.add(p.dram_read_gigabytes_per_second);
  m_dram_write.add(p.dram_write_gigabytes_per_second);
  m_sm.mhz.add(p.sm_clock_mhz);
  m_dram_clock.mhz.add(p.dram_clock_mhz);
  if (p.layout) {
    LayoutSummary& l = m_layouts[static_cast<int>(*p.layout)];
    l.dram.add(p.dram_gigabytes_per_second());
    if (p.computed_gigabytes_per_second) l.computed.add(*p.computed_gigabytes_per_second);
    if (const auto mb = p.hardware_megabytes_per_frame()) l.hardware_megabytes_per_frame.add(*mb);
    if (const auto mb = p.formula_megabytes_per_frame()) l.formula_megabytes_per_frame.add(*mb);
  }
  m_hardware.push_back(p);
  while (m_hardware.size() > m_hardware_capacity) m_hardware.pop_front();
}

void HardwareSeries::reset_layouts() {
  m_layouts = {};
}

std::vector<std::string> HardwareSeries::clock_notes() const {
  std::vector<std::string> notes;
  for (const std::string& note : {clock_note("SM", m_sm), clock_note("memory", m_dram_clock)})
    if (!note.empty()) notes.push_back(note);
  return notes;
}

}  // namespace coalesce
