// The viewer's hardware counters (issues 11, 20): owns the PM sampler, takes its finished samples once
// per frame into the series the panel plots and the screenshot JSON reports, or says in one line why
// there is none. The sampler decodes on a thread of its own (kernels/counters/sampler_thread.h).
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/viewer/hardware_series.h"
#include "sim/backend.h"

namespace coalesce {

// Fixed sampling interval: a layout sweep's 120 frames span several samples, and decoding stays cheap.
constexpr double kHardwareIntervalMs = 50.0;

class ViewerHardware {
 public:
  // The sampler on CUDA device `device` (-1: the CPU backend, which has none). `now`: the viewer's clock
  // when this is called; opening the sampler takes a while, which is added to it.
  static ViewerHardware open(int device, const DeviceInfo& info, double now);
  // No sampler: --no-counters.
  static ViewerHardware off(const DeviceInfo& info, double now);
  // A given sampler (null: none, and `why` says why); `offset`: the viewer's clock when it started.
  ViewerHardware(std::unique_ptr<HardwareSampler> sampler, std::string why, const DeviceInfo& info,
                 double offset);

  // Takes the samples finished since the last call (it never waits for a decode); a failing sampler is
  // dropped, its error kept as why.
  void poll();
  void add_frame(const ComputedPoint& frame) { m_series.add_frame(frame); }
  void reset_layouts() { m_series.reset_layouts(); }

  bool available() const { return m_sampler != nullptr; }
  const std::string& reason() const { return m_reason; }  // one line; empty while available
  const HardwareSeries& series() const { return m_series; }
  // What the counters cost the frame loop: the CPU wall time of each poll.
  const Summary& poll_milliseconds() const { return m_poll_ms; }
  // The wall time of each decode on the sampler's own thread; none where the sampler has no thread of
  // its own (its decodes are then in poll_milliseconds) or is gone.
  std::optional<Summary> decode_milliseconds() const;
  // How long opening the sampler took (open() only): the shift the frames' clock gets.
  std::optional<double> open_milliseconds() const { return m_open_ms; }

 private:
  std::unique_ptr<HardwareSampler> m_sampler;
  std::string m_reason;
  double m_offset;
  std::optional<double> m_open_ms;
  HardwareSeries m_series;
  Summary m_poll_ms;
  std::optional<Summary> m_last_decode_ms;  // kept when a failing sampler is dropped
};

}  // namespace coalesce
