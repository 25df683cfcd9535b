// Opening and reading the viewer's sampler; the counters' failures become one line, never the viewer's.
#include "app/viewer/viewer_hardware.h"

#include <chrono>
#include <exception>
#include <utility>

namespace coalesce {

ViewerHardware ViewerHardware::off(const DeviceInfo& info, double now) {
  return ViewerHardware(nullptr, "hardware counters off (--no-counters)", info, now);
}

ViewerHardware ViewerHardware::open(int device, const DeviceInfo& info, double now) {
  if (device < 0) return ViewerHardware(nullptr, "hardware counters unavailable: CPU backend", info, now);
  std::string why;
  std::unique_ptr<HardwareSampler> sampler;
  try {
    sampler = make_hardware_sampler(device, kHardwareIntervalMs, why);
  } catch (const std::exception& e) {
    why = std::string("hardware counters unavailable: ") + e.what();
  }
  if (!sampler && why.empty()) why = "hardware counters unavailable: no reason given";
  return ViewerHardware(std::move(sampler), why, info, now);
}

ViewerHardware::ViewerHardware(std::unique_ptr<HardwareSampler> sampler, std::string why,
                               const DeviceInfo& info, double offset)
    : m_sampler(std::move(sampler)),
      m_reason(m_sampler ? std::string() : std::move(why)),
      m_offset(offset),
      m_series(kHardwareIntervalMs, info.sm_clock_khz * 1e-3, info.memory_clock_khz * 1e-3) {}

void ViewerHardware::poll(double now) {
  if (!m_sampler || now < m_next_poll) return;
  m_next_poll = now + m_series.interval_ms() * 1e-3;
  try {
    const auto start = std::chrono::steady_clock::now();
    const std::vector<HardwareSample> samples = m_sampler->poll();
    m_poll_ms.add(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    for (const HardwareSample& sample : samples) m_series.add_sample(sample, m_offset);
  } catch (const std::exception& e) {
    m_sampler.reset();
    m_reason = std::string("hardware counters stopped: ") + e.what();
  }
}

}  // namespace coalesce
