// The hardware counters in the screenshot JSON: every number from the series the panel plots.
#include "app/viewer/viewer_report_hardware.h"

#include <algorithm>
#include <string>

namespace coalesce {
namespace {

// A summary's mean, or null when it holds nothing.
nlohmann::json mean_or_null(const Summary& summary) {
  return summary.count > 0 ? nlohmann::json(summary.mean()) : nlohmann::json(nullptr);
}

using nlohmann::json;

constexpr std::size_t kRecentSamples = 64;  // enough for a 120-frames-per-layout sweep at 50 ms

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

json summary_json(const Summary& s) {
  if (s.count == 0) return nullptr;
  return {{"mean", s.mean()}, {"min", s.min}, {"max", s.max}};
}

json unavailable(const std::string& reason) {
  return {{"available", false}, {"reason", reason}};
}

}  // namespace

json sampled_clocks_json(const ViewerHardware& hardware, const DeviceInfo& device) {
  json out = {{"max_sm_mhz", device.sm_clock_khz / 1e3}, {"max_memory_mhz", device.memory_clock_khz / 1e3}};
  const HardwareSeries& s = hardware.series();
  out["measured"] = hardware.available() && s.samples() > 0;
  if (!hardware.available()) {
    out["reason"] = hardware.reason();
    return out;
  }
  if (s.samples() == 0) {
    out["reason"] = "no hardware sample yet: the run was shorter than one interval";
    return out;
  }
  const Summary& sm = s.sm_clock().mhz;
  const Summary& memory = s.dram_clock().mhz;
  out["sm_mhz"] = sm.mean();
  out["sm_mhz_min"] = sm.min;
  out["sm_mhz_max"] = sm.max;
  out["memory_mhz"] = memory.mean();
  out["memory_mhz_min"] = memory.min;
  out["memory_mhz_max"] = memory.max;
  out["samples"] = s.samples();
  out["source"] = "CUPTI PM sampling every " + std::to_string(static_cast<int>(s.interval_ms())) +
                  " ms, averaged over the samples; maximums from cudaDevAttrClockRate and "
                  "cudaDevAttrMemoryClockRate";
  std::string note;
  for (const std::string& n : s.clock_notes()) note += (note.empty() ? "" : "; ") + n;
  out["note"] = note.empty() ? json(nullptr) : json(note);
  return out;
}

json sampled_hardware_json(const ViewerHardware& hardware) {
  if (!hardware.available()) return unavailable(hardware.reason());
  const HardwareSeries& s = hardware.series();
  json per_layout = json::object();
  for (Layout layout : kAllLayouts) {
    const HardwareSeries::LayoutSummary& l = s.layout_summary(layout);
    if (l.dram.count == 0) continue;
    per_layout[std::string(to_string(layout))] = {
        {"samples", l.dram.count},
        {"dram_gigabytes_per_second", l.dram.mean()},
        {"computed_gigabytes_per_second", l.computed.count > 0 ? json(l.computed.mean()) : json(nullptr)},
        {"dram_megabytes_per_frame", mean_or_null(l.hardware_megabytes_per_frame)},
        {"formula_megabytes_per_frame", mean_or_null(l.formula_megabytes_per_frame)}};
  }
  json recent = json::array();
  const auto& points = s.hardware();
  for (auto it = points.end() - static_cast<long>(std::min(points.size(), kRecentSamples));
       it != points.end(); ++it) {
    recent.push_back({{"seconds", it->end_seconds},
                      {"dram_read_gigabytes_per_second", it->dram_read_gigabytes_per_second},
                      {"dram_write_gigabytes_per_second", it->dram_write_gigabytes_per_second},
                      {"sm_clock_mhz", it->sm_clock_mhz},
                      {"memory_clock_mhz", it->dram_clock_mhz},
                      {"layout", it->layout ? json(std::string(to_string(*it->layout))) : json(nullptr)},
                      {"computed_gigabytes_per_second", optional_number(it->computed_gigabytes_per_second)},
                      {"dram_megabytes_per_frame", optional_number(it->hardware_megabytes_per_frame())},
                      {"formula_megabytes_per_frame", optional_number(it->formula_megabytes_per_frame())}});
  }
  return {{"available", true},
          {"interval_ms", s.interval_ms()},
          {"samples", s.samples()},
          {"dram_gigabytes_per_second", summary_json(s.dram())},
          {"dram_read_gigabytes_per_second", summary_json(s.dram_read())},
          {"dram_write_gigabytes_per_second", summary_json(s.dram_write())},
          {"per_layout", per_layout},
          {"poll_milliseconds", summary_json(hardware.poll_milliseconds())},  // CPU cost of each decode
          {"recent", recent}};
}

}  // namespace coalesce
