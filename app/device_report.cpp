// device_json and driver_text: the one rendering of DeviceInfo for the reports and the panel.
#include "app/device_report.h"

#include <cmath>
#include <cstdio>

namespace coalesce {

nlohmann::json device_json(const DeviceInfo& d) {
  return {{"gpu", d.gpu},
          {"name", d.name},
          {"driver", d.driver},
          {"cuda_driver", d.cuda_driver},
          {"cuda_runtime", d.cuda_runtime},
          {"multiprocessors", d.multiprocessors},
          {"memory_bytes", d.memory_bytes},
          {"sm_clock_khz", d.sm_clock_khz},
          {"memory_clock_khz", d.memory_clock_khz},
          {"bus_width_bits", d.bus_width_bits},
          {"theoretical_peak_gbps", d.theoretical_peak_gbps},
          {"copy_peak_gbps", d.copy_peak_gbps}};
}

std::string driver_text(const DeviceInfo& d) {
  if (d.cuda_driver.empty()) return d.driver;
  return (d.driver.empty() ? "" : d.driver + " / ") + "CUDA " + d.cuda_driver;
}

std::optional<double> clock_off_maximum(double measured, double maximum) {
  if (maximum <= 0) return std::nullopt;
  const double off = (measured - maximum) / maximum;
  if (std::fabs(off) <= kClockNoteFraction) return std::nullopt;
  return off;
}

namespace {

nlohmann::json ratio(double num, double den) {
  return den > 0 ? nlohmann::json(num / den) : nlohmann::json(nullptr);
}

std::vector<RowCounters> measured(const std::vector<CounterReading>& rows) {
  std::vector<RowCounters> out;
  for (const CounterReading& r : rows)
    if (r.available) out.push_back(r.values);
  return out;
}

std::string fixed(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

}  // namespace

nlohmann::json counters_json(const CounterReading& r, double formula_bytes) {
  if (!r.available) return {{"available", false}, {"reason", r.reason}};
  const RowCounters& v = r.values;
  const double dram = v.dram_read_bytes + v.dram_write_bytes;
  return {{"available", true},
          {"kernels", r.kernels},
          {"dram_read_bytes", v.dram_read_bytes},
          {"dram_write_bytes", v.dram_write_bytes},
          {"ratio_to_formula", ratio(dram, formula_bytes)},
          {"load_sectors_per_request", ratio(v.global_load_sectors, v.global_load_requests)},
          {"store_sectors_per_request", ratio(v.global_store_sectors, v.global_store_requests)},
          {"shared_load_wavefronts_per_request", ratio(v.shared_load_wavefronts, v.shared_load_requests)},
          {"shared_store_wavefronts_per_request", ratio(v.shared_store_wavefronts, v.shared_store_requests)},
          {"global_load_sectors", v.global_load_sectors},
          {"global_load_requests", v.global_load_requests},
          {"global_store_sectors", v.global_store_sectors},
          {"global_store_requests", v.global_store_requests},
          {"shared_load_wavefronts", v.shared_load_wavefronts},
          {"shared_load_requests", v.shared_load_requests},
          {"shared_store_wavefronts", v.shared_store_wavefronts},
          {"shared_store_requests", v.shared_store_requests},
          {"sm_clock_mhz", v.sm_clock_hz / 1e6},
          {"memory_clock_mhz", v.dram_clock_hz / 1e6},
          {"kernel_ms", v.duration_ns / 1e6}};
}

namespace {

// The note for the clocks `all` measured, against the device's maximums ("" when both agree).
std::string note_of(const DeviceInfo& d, const RowCounters& all) {
  std::string note;
  auto check = [&](const char* what, double hz, int max_khz) {
    if (hz <= 0) return;  // not measured
    const double max_hz = 1e3 * max_khz;
    const std::optional<double> off = clock_off_maximum(hz, max_hz);
    if (!off) return;
    note += std::string(note.empty() ? "" : "; ") + what + " clock measured " + fixed("%.0f", hz / 1e6) +
            " MHz vs maximum " + fixed("%.0f", max_hz / 1e6) + " MHz (" + fixed("%+.0f%%", 100.0 * *off) +
            "): timings may not be at full clocks";
  };
  check("SM", all.sm_clock_hz, d.sm_clock_khz);
  check("memory", all.dram_clock_hz, d.memory_clock_khz);
  return note;
}

}  // namespace

std::string clocks_note(const DeviceInfo& d, const std::vector<CounterReading>& rows) {
  const std::vector<RowCounters> parts = measured(rows);
  return parts.empty() ? "" : note_of(d, combine(parts));
}

nlohmann::json clocks_json(const DeviceInfo& d, const std::vector<CounterReading>& rows,
                           const std::string& why_none) {
  const std::vector<RowCounters> parts = measured(rows);
  nlohmann::json out = {{"max_sm_mhz", d.sm_clock_khz / 1e3}, {"max_memory_mhz", d.memory_clock_khz / 1e3}};
  if (parts.empty()) {
    out["measured"] = false;
    // The run's reason, else the first row's (the pass ran, yet no row has counters).
    std::string why = why_none;
    for (const CounterReading& r : rows)
      if (why.empty()) why = r.reason;
    out["reason"] = why;
    return out;
  }
  const RowCounters all = combine(parts);
  out["measured"] = true;
  out["sm_mhz"] = all.sm_clock_hz / 1e6;
  out["memory_mhz"] = all.dram_clock_hz / 1e6;
  out["source"] = "counter passes: gpc__cycles_elapsed.avg.per_second and dram__cycles_elapsed.avg.per_second, "
                  "averaged over the rows weighted by kernel time; maximums from cudaDevAttrClockRate and "
                  "cudaDevAttrMemoryClockRate";
  const std::string note = note_of(d, all);
  out["note"] = note.empty() ? nlohmann::json(nullptr) : nlohmann::json(note);
  return out;
}

std::string counters_ratio_cell(const CounterReading& r, double formula_bytes) {
  if (!r.available || formula_bytes <= 0) return "-";
  return fixed("%.2f", (r.values.dram_read_bytes + r.values.dram_write_bytes) / formula_bytes);
}

namespace {
std::string per_request(double count, double requests) {
  return requests > 0 ? fixed("%.1f", count / requests) : std::string("-");
}
}  // namespace

std::string sectors_cell(const CounterReading& r) {
  if (!r.available) return "-";
  const RowCounters& v = r.values;
  return per_request(v.global_load_sectors, v.global_load_requests) + "/" +
         per_request(v.global_store_sectors, v.global_store_requests);
}

std::string wavefronts_cell(const CounterReading& r) {
  if (!r.available) return "-";
  const RowCounters& v = r.values;
  if (v.shared_load_requests <= 0 && v.shared_store_requests <= 0) return "-";
  return per_request(v.shared_load_wavefronts, v.shared_load_requests) + "/" +
         per_request(v.shared_store_wavefronts, v.shared_store_requests);
}

}  // namespace coalesce
