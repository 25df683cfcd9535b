// Opening and reading the viewer's sampler; the counters' failures become one line, never the viewer's.
#include "app/viewer/viewer_hardware.h"

#include <chrono>
#include <exception>
#include <utility>

namespace coalesce {

namespace {
double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// A device fact in kHz as HardwareSeries's maximum in MHz, 0 where it is unknown.
double maximum_mhz(std::optional<int> khz) {
  return khz && *khz > 0 ? *khz * 1e-3 : 0.0;
}
}  // namespace

ViewerHardware ViewerHardware::off(const DeviceInfo& info, double now) {
  return ViewerHardware(nullptr, "hardware counters off (--no-counters)", info, now);
}

ViewerHardware ViewerHardware::open(int device, const DeviceInfo& info, double now) {
  if (device < 0) return ViewerHardware(nullptr, "hardware counters unavailable: CPU backend", info, now);
  std::string why;
  std::unique_ptr<HardwareSampler> sampler;
  const auto start = std::chrono::steady_clock::now();
  try {
    sampler = make_hardware_sampler(device, kHardwareIntervalMs, why);
  } catch (const std::exception& e) {
    why = std::string("hardware counters unavailable: ") + e.what();
  }
  if (!sampler && why.empty()) why = "hardware counters unavailable: no reason given";
  // The sampler's clock starts as it is made, at the end of opening (CUPTI's set-up takes a good part of
  // a second): from `now` the samples would sit that much early on the frames' clock.
  const double open_ms = ms_since(start);
  ViewerHardware hardware(std::move(sampler), why, info, now + open_ms * 1e-3);
  hardware.m_open_ms = open_ms;
  return hardware;
}

ViewerHardware::ViewerHardware(std::unique_ptr<HardwareSampler> sampler, std::string why,
                               const DeviceInfo& info, double offset)
    : m_sampler(std::move(sampler)),
      m_reason(m_sampler ? std::string() : std::move(why)),
      m_offset(offset),
      m_series(kHardwareIntervalMs, maximum_mhz(info.sm_clock_khz), maximum_mhz(info.memory_clock_khz)) {}

void ViewerHardware::poll() {
  if (!m_sampler) return;
  try {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<HardwareSample> samples = m_sampler->poll();
    for (const HardwareSample& sample : samples) m_series.add_sample(sample, m_offset);
    m_poll_ms.add(ms_since(start));
  } catch (const std::exception& e) {
    m_last_decode_ms = m_sampler->decode_milliseconds();
    m_sampler.reset();
    m_reason = std::string("hardware counters stopped: ") + e.what();
  }
}

std::optional<Summary> ViewerHardware::decode_milliseconds() const {
  return m_sampler ? m_sampler->decode_milliseconds() : m_last_decode_ms;
}

}  // namespace coalesce
