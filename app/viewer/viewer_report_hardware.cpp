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
  return {{"mean", s.mean()}, {"min", s.min}, {"max", s.max}, {"count", s.count}};
}

// A device fact in kHz as MHz; null where it is unknown.
json mhz_or_null(std::optional<int> khz) {
  return khz && *khz > 0 ? json(*khz / 1e3) : json(nullptr);
}

json unavailable(const std::string& reason) {
  return {{"available", false}, {"reason", reason}};
}

}  // namespace

json sampled_clocks_json(const ViewerHardware& hardware, const DeviceInfo& device) {
  json out = {{"max_sm_mhz", mhz_or_null(device.sm_clock_khz)},
              {"max_memory_mhz", mhz_or_null(device.memory_clock_khz)}};
  const HardwareSeries& s = hardware.series();
  const long measured = s.samples() - s.unmeasured_samples();
  out["measured"] = hardware.available() && measured > 0;
  if (!hardware.available()) {
    out["reason"] = hardware.reason();
    return out;
  }
  if (measured == 0) {
    out["reason"] = s.samples() == 0 ? "no hardware sample yet: the run was shorter than one interval"
                                     : "no hardware sample measured the clocks yet (they read 0 MHz)";
    return out;
  }
  const Summary& sm = s.sm_clock().mhz;
  const Summary& memory = s.dram_clock().mhz;
  out["sm_mhz"] = optional_number(s.sm_clock().busy_mhz());
  out["sm_mhz_min"] = sm.min;
  out["sm_mhz_max"] = sm.max;
  out["memory_mhz"] = optional_number(s.dram_clock().busy_mhz());
  out["memory_mhz_min"] = memory.min;
  out["memory_mhz_max"] = memory.max;
  out["samples"] = measured;
  out["unmeasured_samples"] = s.unmeasured_samples();
  out["source"] = "CUPTI PM sampling every " + std::to_string(static_cast<int>(s.interval_ms())) +
                  " ms; means over the samples that measured a clock (not 0 MHz, not empty), each weighted "
                  "by the DRAM bytes of its interval; maximums from cudaDevAttrClockRate and "
                  "cudaDevAttrMemoryClockRate";
  std::string note;
  for (const std::string& n : s.clock_notes()) note += (note.empty() ? "" : "; ") + n;
  out["note"] = note.empty() ? json(nullptr) : json(note);
  return out;
}

namespace {

// Every layout that ran in `precision`: its whole-sample means, or why it has none.
json per_layout_json(const HardwareSeries& s, Precision precision) {
  json per_layout = json::object();
  for (Layout layout : kAllLayouts) {
    const HardwareSeries::LayoutSummary& l = s.layout_summary(layout, precision);
    if (l.seconds_run <= 0 && l.dram.count == 0) continue;
    const std::string note = s.unsampled_note(layout, precision);
    per_layout[std::string(to_string(layout))] = {
        {"samples", l.dram.count},
        {"ran_milliseconds", l.seconds_run * 1e3},
        {"dram_gigabytes_per_second", mean_or_null(l.dram)},
        {"computed_gigabytes_per_second", mean_or_null(l.computed)},
        {"dram_megabytes_per_frame", mean_or_null(l.hardware_megabytes_per_frame)},
        {"formula_megabytes_per_frame", mean_or_null(l.formula_megabytes_per_frame)},
        {"note", note.empty() ? json(nullptr) : json(note)}};
  }
  return per_layout;
}

}  // namespace

json sampled_hardware_json(const ViewerHardware& hardware, Precision precision) {
  if (!hardware.available()) return unavailable(hardware.reason());
  const HardwareSeries& s = hardware.series();
  json per_precision = json::object();
  for (Precision p : kAllPrecisions) per_precision[std::string(to_string(p))] = per_layout_json(s, p);
  json recent = json::array();
  const auto& points = s.hardware();
  for (auto it = points.end() - static_cast<long>(std::min(points.size(), kRecentSamples));
       it != points.end(); ++it) {
    const bool measured = it->measured();
    const auto when_measured = [&](double value) { return measured ? json(value) : json(nullptr); };
    recent.push_back(
        {{"seconds", it->end_seconds},
         {"measured", measured},
         {"dram_read_gigabytes_per_second", when_measured(it->dram_read_gigabytes_per_second)},
         {"dram_write_gigabytes_per_second", when_measured(it->dram_write_gigabytes_per_second)},
         {"sm_clock_mhz", when_measured(it->sm_clock_mhz)},
         {"memory_clock_mhz", when_measured(it->dram_clock_mhz)},
         {"layout", it->layout ? json(std::string(to_string(*it->layout))) : json(nullptr)},
         {"precision", it->layout ? json(std::string(to_string(it->precision))) : json(nullptr)},
         {"layout_share", it->layout ? json(it->layout_share) : json(nullptr)},
         {"frames", it->frames},
         {"computed_gigabytes_per_second", optional_number(it->computed_gigabytes_per_second)},
         {"dram_megabytes_per_frame",
          measured ? optional_number(it->hardware_megabytes_per_frame()) : json(nullptr)},
         {"formula_megabytes_per_frame", optional_number(it->formula_megabytes_per_frame())},
         {"partial_sum_megabytes_per_frame", optional_number(it->scratch_megabytes_per_frame())},
         {"note",
          measured && it->hardware_megabytes_per_frame() && it->formula_megabytes_per_frame()
              ? json(per_frame_note(*it->hardware_megabytes_per_frame(), *it->formula_megabytes_per_frame(),
                                    it->scratch_megabytes_per_frame().value_or(0.0)))
              : json(nullptr)}});
  }
  const std::optional<Summary> decode = hardware.decode_milliseconds();
  return {{"available", true},
          {"interval_ms", s.interval_ms()},
          {"samples", s.samples()},
          {"unmeasured_samples", s.unmeasured_samples()},
          {"dram_gigabytes_per_second", summary_json(s.dram())},
          {"dram_read_gigabytes_per_second", summary_json(s.dram_read())},
          {"dram_write_gigabytes_per_second", summary_json(s.dram_write())},
          {"per_layout", per_layout_json(s, precision)},  // the run's precision now, as before precisions
          {"per_layout_by_precision", per_precision},
          // What the counters cost the frame loop: each poll's CPU wall time (taking finished samples).
          {"poll_milliseconds", summary_json(hardware.poll_milliseconds())},
          // Each decode's wall time on the sampler's own thread (null: no such thread, or none yet).
          {"decode_milliseconds", decode ? summary_json(*decode) : json(nullptr)},
          {"open_milliseconds", optional_number(hardware.open_milliseconds())},
          {"recent", recent}};
}

}  // namespace coalesce
