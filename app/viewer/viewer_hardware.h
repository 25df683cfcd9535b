// The viewer's hardware counters (issue 11): owns the PM sampler, reads it once per frame into the
// series the panel plots and the screenshot JSON reports, or says in one line why there is none.
#pragma once

#include <memory>
#include <string>

#include "app/viewer/hardware_series.h"
#include "sim/backend.h"

namespace coalesce {

// Fixed sampling interval: a layout sweep's 120 frames span several samples, and decoding stays cheap.
constexpr double kHardwareIntervalMs = 50.0;

class ViewerHardware {
 public:
  // The sampler on CUDA device `device` (-1: the CPU backend, which has none). `now`: the viewer's clock.
  static ViewerHardware open(int device, const DeviceInfo& info, double now);
  // No sampler: --no-counters.
  static ViewerHardware off(const DeviceInfo& info, double now);
  // A given sampler (null: none, and `why` says why); `offset`: the viewer's clock when it started.
  ViewerHardware(std::unique_ptr<HardwareSampler> sampler, std::string why, const DeviceInfo& info,
                 double offset);

  // Takes the samples gathered since the last call, at most once per interval (`now`: the viewer's
  // clock), since each decode costs CPU time; a failing sampler is dropped, its error kept as why.
  void poll(double now);
  void add_frame(const ComputedPoint& frame) { m_series.add_frame(frame); }
  void reset_layouts() { m_series.reset_layouts(); }

  bool available() const { return m_sampler != nullptr; }
  const std::string& reason() const { return m_reason; }  // one line; empty while available
  const HardwareSeries& series() const { return m_series; }
  const Summary& poll_milliseconds() const { return m_poll_ms; }  // CPU wall time of each poll

 private:
  std::unique_ptr<HardwareSampler> m_sampler;
  std::string m_reason;
  double m_offset;
  double m_next_poll = 0.0;
  HardwareSeries m_series;
  Summary m_poll_ms;
};

}  // namespace coalesce
