// The hardware series: rings for the plot, running summaries for the report, samples attributed to the
// layout and precision whose frames filled most of their interval.
#include "app/viewer/hardware_series.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace coalesce {

void ClockReport::add(double sample_mhz, double dram_bytes) {
  mhz.add(sample_mhz);
  if (dram_bytes > 0) {
    weighted_mhz += sample_mhz * dram_bytes;
    weight += dram_bytes;
  }
}

std::optional<double> ClockReport::busy_mhz() const {
  if (weight <= 0) return std::nullopt;
  return weighted_mhz / weight;
}

std::string clock_note(const std::string& name, const ClockReport& clock) {
  const std::optional<double> busy = clock.busy_mhz();
  if (!busy) return "";
  const std::optional<double> off = clock_off_maximum(*busy, clock.maximum_mhz);
  if (!off) return "";
  char text[240];
  std::snprintf(text, sizeof text,
                "%s clock averaged %.0f MHz while DRAM was busy, %.1f%% %s its maximum %.0f MHz: numbers are "
                "suspect",
                name.c_str(), *busy, 100.0 * std::abs(*off), *off < 0 ? "below" : "above", clock.maximum_mhz);
  return text;
}

namespace {

std::vector<std::string> notes_of(const ClockReport& sm, const ClockReport& memory) {
  std::vector<std::string> notes;
  for (const std::string& note : {clock_note("SM", sm), clock_note("memory", memory)})
    if (!note.empty()) notes.push_back(note);
  return notes;
}

// Time-weighted sums of a value; the mean is none when nothing had a value.
struct WeightedMean {
  double sum = 0.0;
  double weight = 0.0;
  void add(double value, double w) {
    sum += value * w;
    weight += w;
  }
  std::optional<double> mean() const { return weight > 0 ? std::optional<double>(sum / weight) : std::nullopt; }
};

}  // namespace

std::vector<std::string> clock_notes(const std::vector<HardwarePoint>& samples, double sm_maximum_mhz,
                                     double dram_maximum_mhz) {
  ClockReport sm, memory;
  sm.maximum_mhz = sm_maximum_mhz;
  memory.maximum_mhz = dram_maximum_mhz;
  for (const HardwarePoint& p : samples) {
    if (!p.measured()) continue;
    sm.add(p.sm_clock_mhz, p.dram_bytes());
    memory.add(p.dram_clock_mhz, p.dram_bytes());
  }
  return notes_of(sm, memory);
}

std::string per_frame_note(double dram, double formula, double scratch) {
  if (!(dram > 0) || !(formula > 0)) return "";
  scratch = std::clamp(scratch, 0.0, formula);
  const double state = formula - scratch;
  const double beyond = std::max(0.0, dram - formula);
  char text[320];
  if (scratch >= state && scratch >= beyond)
    std::snprintf(
        text, sizeof text,
        "most of these bytes are the forces' partial sums: %.0f of %.0f MB per frame, written and read "
        "back (the state's own %.1f MB; beyond the formulas %.0f MB)",
        scratch, dram, state, beyond);
  else if (beyond >= state)
    std::snprintf(
        text, sizeof text,
        "most of these bytes are in no formula: %.0f of %.0f MB per frame beyond the kernels' %.1f MB "
        "(the draw's reads, the panel, sectors the layout wastes)",
        beyond, dram, formula);
  else
    std::snprintf(
        text, sizeof text,
        "most of these bytes are the kernels' state: %.0f of %.0f MB per frame, so the ratio speaks of "
        "the layout (partial sums %.0f MB, beyond the formulas %.0f MB)",
        state, dram, scratch, beyond);
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
  ComputedPoint f = frame;
  // The first frame has no predecessor: it covers no time.
  f.start_seconds = m_last_frame ? std::min(*m_last_frame, f.seconds) : f.seconds;
  m_last_frame = f.seconds;
  LayoutSummary& l = m_layouts[run_index(f.layout, f.precision)];
  l.seconds_run += f.seconds - f.start_seconds;
  if (!l.first_frame_start) l.first_frame_start = f.start_seconds;
  m_computed.push_back(f);
  while (m_computed.size() > m_computed_capacity) m_computed.pop_front();
}

// Each frame overlapping (start, end] counts by its time inside: toward its layout and precision's share
// of the interval, the frame count, the formula bytes and the computed GB/s.
void HardwareSeries::attribute(HardwarePoint& p) const {
  const double length = p.end_seconds - p.start_seconds;
  if (length <= 0) return;
  std::array<double, kRuns> covered{};
  std::array<WeightedMean, kRuns> per_run{};
  WeightedMean every;
  for (auto it = m_computed.rbegin(); it != m_computed.rend() && it->seconds > p.start_seconds; ++it) {
    const double inside = std::min(p.end_seconds, it->seconds) - std::max(p.start_seconds, it->start_seconds);
    if (inside <= 0) continue;
    const double share_of_frame = inside / (it->seconds - it->start_seconds);
    const std::size_t l = run_index(it->layout, it->precision);
    covered[l] += inside;
    p.frames += share_of_frame;
    p.formula_bytes += share_of_frame * it->formula_bytes;
    p.scratch_bytes += share_of_frame * it->scratch_bytes;
    if (it->gigabytes_per_second) {
      per_run[l].add(*it->gigabytes_per_second, inside);
      every.add(*it->gigabytes_per_second, inside);
    }
  }
  for (Precision precision : kAllPrecisions) {
    for (Layout layout : kAllLayouts) {
      const std::size_t l = run_index(layout, precision);
      if (covered[l] > 0.5 * length) {
        p.layout = layout;
        p.precision = precision;
        p.layout_share = covered[l] / length;
      }
    }
  }
  p.computed_gigabytes_per_second =
      p.layout ? per_run[run_index(*p.layout, p.precision)].mean() : every.mean();
}

void HardwareSeries::add_sample(const HardwareSample& sample, double offset) {
  HardwarePoint p;
  p.end_seconds = sample.seconds + offset;
  p.start_seconds = m_hardware.empty() ? p.end_seconds - m_interval_ms * 1e-3 : m_hardware.back().end_seconds;
  p.dram_read_gigabytes_per_second = sample.dram_read_bytes_per_second * 1e-9;
  p.dram_write_gigabytes_per_second = sample.dram_write_bytes_per_second * 1e-9;
  p.sm_clock_mhz = sample.sm_clock_hz * 1e-6;
  p.dram_clock_mhz = sample.dram_clock_hz * 1e-6;
  attribute(p);
  ++m_samples;
  if (p.measured()) {
    m_dram.add(p.dram_gigabytes_per_second());
    m_dram_read.add(p.dram_read_gigabytes_per_second);
    m_dram_write.add(p.dram_write_gigabytes_per_second);
    m_sm.add(p.sm_clock_mhz, p.dram_bytes());
    m_dram_clock.add(p.dram_clock_mhz, p.dram_bytes());
    if (p.layout) {
      LayoutSummary& l = m_layouts[run_index(*p.layout, p.precision)];
      l.dram.add(p.dram_gigabytes_per_second());
      if (p.computed_gigabytes_per_second) l.computed.add(*p.computed_gigabytes_per_second);
      if (const auto mb = p.hardware_megabytes_per_frame()) l.hardware_megabytes_per_frame.add(*mb);
      if (const auto mb = p.formula_megabytes_per_frame()) l.formula_megabytes_per_frame.add(*mb);
    }
  }
  m_hardware.push_back(p);
  while (m_hardware.size() > m_hardware_capacity) m_hardware.pop_front();
}

void HardwareSeries::reset_layouts() {
  m_layouts = {};
}

std::vector<std::string> HardwareSeries::clock_notes() const {
  return notes_of(m_sm, m_dram_clock);
}

std::string HardwareSeries::unsampled_note(Layout layout, Precision precision) const {
  const LayoutSummary& l = layout_summary(layout, precision);
  if (l.dram.count > 0 || l.seconds_run <= 0) return "";
  char text[160];
  const double ran_ms = l.seconds_run * 1e3;
  if (m_hardware.empty() || m_hardware.back().end_seconds <= *l.first_frame_start)
    std::snprintf(text, sizeof text, "ran %.0f ms, after the last decoded sample", ran_ms);
  else if (ran_ms < m_interval_ms)
    std::snprintf(text, sizeof text, "ran %.0f ms, shorter than one %.0f ms sample", ran_ms, m_interval_ms);
  else
    std::snprintf(text, sizeof text, "ran %.0f ms, but no %.0f ms sample was mostly its frames", ran_ms,
                  m_interval_ms);
  return text;
}

}  // namespace coalesce
