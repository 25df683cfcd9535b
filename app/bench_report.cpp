// Bench table and JSON writer (hand-written JSON: a flat schema, no extra dependency).
#include "app/bench_report.h"

#include <cmath>
#include <sstream>

namespace coalesce {

namespace {

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// JSON has no NaN or Inf; a missing measurement is written as null.
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

}  // namespace

void print_bench_table(const BenchResult& r, std::FILE* out) {
  const DeviceInfo& d = r.device;
  std::fprintf(out, "%s | driver %s | SM clock %d MHz, memory %d MHz x %d bit\n", r.backend_name.c_str(),
               d.driver.empty() ? "-" : d.driver.c_str(), d.sm_clock_khz / 1000, d.memory_clock_khz / 1000,
               d.bus_width_bits);
  std::fprintf(out, "copy ceiling %.0f GB/s (measured this run) | theoretical peak %.0f GB/s\n",
               d.copy_peak_gbps, d.theoretical_peak_gbps);
  std::fprintf(out, "%-10s %9s %-6s %-9s %-12s %10s %9s %7s %14s\n", "solver", "N", "layout", "kernel",
               "variant", "median ms", "GB/s", "% copy", "interactions/s");
  for (const BenchRow& row : r.rows) {
    char rate[32] = "";
    if (row.interactions > 0) std::snprintf(rate, sizeof rate, "%.3e", row.interactions_per_second);
    std::fprintf(out, "%-10s %9d %-6s %-9s %-12s %10.4f %9.1f %6.1f%% %14s\n",
                 std::string(to_string(row.solver)).c_str(), row.particles,
                 std::string(to_string(row.layout)).c_str(), row.kernel.c_str(), row.variant.c_str(),
                 row.median_ms, row.gbps, row.percent_of_copy, rate);
  }
}

std::string bench_json(const BenchResult& r) {
  std::ostringstream j;
  const DeviceInfo& d = r.device;
  j << "{\n  \"schema\": \"coalesce-bench/1\",\n";
  j << "  \"command_line\": " << quoted(r.command_line) << ",\n";
  j << "  \"date_utc\": " << quoted(r.date_utc) << ",\n";
  j << "  \"backend\": " << quoted(r.backend_name) << ",\n";
  j << "  \"device\": {\"name\": " << quoted(d.name) << ", \"driver\": " << quoted(d.driver)
    << ", \"multiprocessors\": " << d.multiprocessors << ", \"memory_bytes\": " << number(d.memory_bytes)
    << ", \"sm_clock_khz\": " << d.sm_clock_khz << ", \"memory_clock_khz\": " << d.memory_clock_khz
    << ", \"bus_width_bits\": " << d.bus_width_bits
    << ", \"theoretical_peak_gbps\": " << number(d.theoretical_peak_gbps)
    << ", \"copy_peak_gbps\": " << number(d.copy_peak_gbps) << "},\n";
  j << "  \"method\": {\"repeats\": " << r.plan.repeats << ", \"warmup_calls\": " << r.plan.warmup_calls
    << ", \"warmup_ms\": " << number(r.plan.warmup_ms)
    << ", \"statistic\": \"median\", \"bytes\": \"sim/byte_counts.h: each input read once, each output "
       "written "
       "once\", \"copy_peak\": \"device-to-device copy, bytes read + written, measured at start-up\"},\n";
  j << "  \"rows\": [";
  for (std::size_t i = 0; i < r.rows.size(); ++i) {
    const BenchRow& row = r.rows[i];
    j << (i == 0 ? "\n" : ",\n") << "    {\"solver\": " << quoted(std::string(to_string(row.solver)))
      << ", \"particles\": " << row.particles
      << ", \"layout\": " << quoted(std::string(to_string(row.layout)))
      << ", \"kernel\": " << quoted(row.kernel) << ", \"variant\": " << quoted(row.variant)
      << ", \"samples\": " << row.samples << ", \"median_ms\": " << number(row.median_ms)
      << ", \"min_ms\": " << number(row.min_ms) << ", \"max_ms\": " << number(row.max_ms)
      << ", \"bytes\": " << number(row.bytes) << ", \"gbps\": " << number(row.gbps)
      << ", \"percent_of_copy\": " << number(row.percent_of_copy)
      << ", \"interactions\": " << number(row.interactions)
      << ", \"interactions_per_second\": " << number(row.interactions_per_second) << "}";
  }
  j << "\n  ]\n}\n";
  return j.str();
}

}  // namespace coalesce
