// device_json and driver_text: the one rendering of DeviceInfo for the reports and the panel.
#include "app/services/device_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/cpu_info.h"
#include "sim/printable.h"

namespace coalesce {

namespace {

nlohmann::json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

std::string fixed(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string mib(std::size_t bytes) {
  return fixed("%.0f MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

// {"fp32": {...}, "fp64": {...}}: each precision's all-pairs loop and its issue limit.
nlohmann::json force_loops_json(const CpuFacts& c) {
  nlohmann::json out = nlohmann::json::object();
  for (const PrecisionInfo& p : kPrecisionTable) {
    const CpuForceLoop& loop = c.force_loop(p.precision);
    out[std::string(p.name)] = {{"interactions_per_iteration", loop.interactions_per_iteration},
                                {"instructions_per_iteration", or_null(loop.instructions_per_iteration)},
                                {"fp_pipe_instructions", or_null(loop.fp_pipe_instructions)},
                                {"issue_limit_interactions_per_second", or_null(loop.issue_limit)}};
  }
  return out;
}

// {"copy": {"gbps", "min_gbps", "max_gbps"}, "in-place": ..., "to-other": ...}.
nlohmann::json ceilings_of(const CpuFacts& c) {
  nlohmann::json out = nlohmann::json::object();
  for (const CeilingInfo& row : kCeilingTable) {
    const CpuCeilingMeasure& m = c.ceiling(row.ceiling);
    out[std::string(row.name)] = {{"gbps", m.gbps}, {"min_gbps", m.min_gbps}, {"max_gbps", m.max_gbps}};
  }
  return out;
}

nlohmann::json cpu_json(const CpuFacts& c) {
  return {{"threads", c.threads},
          {"online_cpus", c.online_cpus},
          {"cpu_quota", or_null(c.cpu_quota)},
          {"threads_rule", c.threads_rule},
          {"cores", or_null(c.cores)},
          {"clock_mhz", or_null(c.clock_mhz)},
          {"clock_source", text_or_null(c.clock_source)},
          {"last_level_cache_bytes", or_null(c.last_level_cache_bytes)},
          {"last_level_cache_level",
           c.last_level_cache_level > 0 ? nlohmann::json(c.last_level_cache_level) : nlohmann::json(nullptr)},
          {"target", c.target},
          {"simd", c.simd},
          {"simd_use", c.simd_use},
          {"fp_pipes", c.fp_pipes},
          {"fp_pipe_bits", c.fp_pipe_bits},
          {"force_loops", force_loops_json(c)},
          {"ceilings", ceilings_of(c)},
          {"copy",
           {{"buffer_bytes", c.copy.buffer_bytes},
            {"threads", c.copy.threads},
            {"warmups", c.copy.warmups},
            {"copies", c.copy.copies},
            {"min_gbps", c.copy.min_gbps},
            {"max_gbps", c.copy.max_gbps}}}};
}

// "1980 MHz", or "unknown".
std::string mhz_text(const std::optional<int>& khz) {
  return khz ? std::to_string(*khz / 1000) + " MHz" : std::string("unknown");
}

std::vector<std::string> cpu_header_lines(const DeviceInfo& d, const CpuFacts& c, const std::string& backend) {
  std::string cores = c.cores ? counted(*c.cores, "core") + ", " : std::string("cores unknown, ");
  std::vector<std::string> lines;
  lines.push_back(backend + " | " + d.name + " | " + cores + counted(c.threads, "thread") + " used (" +
                  c.threads_rule + ") | clock " +
                  (c.clock_mhz ? fixed("%.0f MHz", *c.clock_mhz) + ", " + c.clock_source : "unknown"));
  lines.push_back("SIMD: " + c.simd + " | force loop: " + c.simd_use);
  for (const PrecisionInfo& p : kPrecisionTable) {
    const CpuForceLoop& loop = c.force_loop(p.precision);
    lines.push_back(std::string(p.name) + " issue limit " +
                    (loop.issue_limit ? fixed("%.3e", *loop.issue_limit) + " interactions/s = " : "unknown: ") +
                    issue_limit_formula(c, p.precision));
  }
  lines.push_back("copy ceiling " + fixed("%.1f GB/s", d.copy_peak_gbps) + ": " + copy_ceiling_method(d));
  // The ceilings the memory-bound rows are compared with, each measured as the copy is (same pool and
  // buffers).
  std::string ceilings = "ceilings of the rows:";
  for (const CeilingInfo& row : kCeilingTable)
    ceilings += std::string(row.ceiling == kCeilingTable.front().ceiling ? " " : "; ") +
                std::string(row.name) + " " + fixed("%.1f GB/s", d.ceiling_gbps(row.ceiling)) + " (" +
                ceiling_kernels(row.ceiling, false) + ")";
  lines.push_back(ceilings + "; bytes read + written, docs/perf.md");
  return lines;
}

}  // namespace

std::string cache_text(const CpuFacts& c) {
  if (!c.last_level_cache_bytes) return "the last-level cache, size unknown";
  return "the " + mib(*c.last_level_cache_bytes) + " L" + std::to_string(c.last_level_cache_level);
}

nlohmann::json device_json(const DeviceInfo& d) {
  return {{"gpu", d.gpu},
          {"name", d.name},
          {"driver", text_or_null(d.driver)},
          {"cuda_driver", text_or_null(d.cuda_driver)},
          {"cuda_runtime", text_or_null(d.cuda_runtime)},
          {"multiprocessors", d.multiprocessors},
          {"memory_bytes", d.memory_bytes},
          {"sm_clock_khz", or_null(d.sm_clock_khz)},
          {"memory_clock_khz", or_null(d.memory_clock_khz)},
          {"bus_width_bits", or_null(d.bus_width_bits)},
          {"theoretical_peak_gbps", or_null(d.theoretical_peak_gbps)},
          {"copy_peak_gbps", d.copy_peak_gbps},
          {"cpu", d.cpu ? cpu_json(*d.cpu) : nlohmann::json(nullptr)}};
}

std::string driver_text(const DeviceInfo& d) {
  if (d.cuda_driver.empty()) return d.driver;
  return (d.driver.empty() ? "" : d.driver + " / ") + "CUDA " + d.cuda_driver;
}

std::string copy_ceiling_label(const DeviceInfo& d) {
  if (d.gpu) return "device-to-device copy";
  const int threads = d.cpu ? d.cpu->copy.threads : d.multiprocessors;
  return "CPU memory copy, " + counted(threads, "thread");
}

std::string copy_ceiling_method(const DeviceInfo& d) {
  if (!d.cpu)
    return "device-to-device cudaMemcpy of up to 512 MiB, 5 warm-ups, median of 15, bytes read + written, "
           "measured at start-up";
  const CpuCopyMethod& m = d.cpu->copy;
  return copy_ceiling_label(d) + ": each thread of the kernels' pool memcpys its part of a " + mib(m.buffer_bytes) +
         " buffer into another, 4 x " + cache_text(*d.cpu) + " so that no cache holds it; " +
         std::to_string(m.warmups) + " warm-ups, median of " + std::to_string(m.copies) + " copies (" +
         fixed("%.1f", m.min_gbps) + " to " + fixed("%.1f GB/s", m.max_gbps) +
         "), bytes read + written, measured at start-up";
}

std::string ceiling_kernels(Ceiling ceiling, bool gpu) {
  std::string out;
  for (KernelKind kind : {KernelKind::Forces, KernelKind::Integrate, KernelKind::Pack, KernelKind::Convert}) {
    if (kernel_ceiling(kind, gpu) != ceiling) continue;
    out += (out.empty() ? "" : ", ") +
           std::string(kind == KernelKind::Forces ? "attractor forces" : to_string(kind));
  }
  return out.empty() ? "no row: percent_of_copy only" : out;
}

std::string ceiling_method(const DeviceInfo& d, Ceiling ceiling) {
  if (ceiling == Ceiling::Copy) return copy_ceiling_method(d);
  if (!d.cpu) return "not measured on a GPU: every GPU row is compared with the device copy";
  const CpuCopyMethod& m = d.cpu->copy;
  const CpuCeilingMeasure& c = d.cpu->ceiling(ceiling);
  return std::string(ceiling_info(ceiling).cpu_method) + "; " + std::to_string(m.threads) +
         (m.threads == 1 ? " thread" : " threads") + " of the kernels' pool, two " + mib(m.buffer_bytes) +
         " buffers, " + std::to_string(m.warmups) + " warm-ups, median of " + std::to_string(m.copies) +
         " (" + fixed("%.1f", c.min_gbps) + " to " + fixed("%.1f GB/s", c.max_gbps) +
         "), bytes read + written";
}

nlohmann::json ceilings_json(const DeviceInfo& d) {
  nlohmann::json out = nlohmann::json::object();
  for (const CeilingInfo& row : kCeilingTable) {
    const double gbps = d.ceiling_gbps(row.ceiling);
    out[std::string(row.name)] = gbps > 0 ? nlohmann::json{{"gbps", gbps},
                                                           {"kernels", ceiling_kernels(row.ceiling, d.gpu)},
                                                           {"method", ceiling_method(d, row.ceiling)}}
                                          : nlohmann::json(nullptr);
  }
  return out;
}

std::string issue_limit_formula(const CpuFacts& c, Precision precision) {
  const CpuForceLoop& loop = c.force_loop(precision);
  const double cores = cpu_cores_used(c);
  const int bits = cpu_instruction_bits(c, precision);
  std::string loop_text = loop.instructions_per_iteration
                              ? " (of " + std::to_string(*loop.instructions_per_iteration) + " instructions)"
                              : std::string();
  return fixed("%g", cores) + (cores == 1 ? " core used x " : " cores used x ") +
         (c.clock_mhz ? fixed("%.0f MHz", *c.clock_mhz) : std::string("clock unknown")) + " x " +
         fixed("%g", fp_pipe_instructions_per_cycle(c, precision)) +
         " multiply-class instructions per cycle (" + std::to_string(c.fp_pipes) + " pipes of " +
         std::to_string(c.fp_pipe_bits) + " bits, assumed; " + std::to_string(bits) +
         "-bit instructions) x " + std::to_string(loop.interactions_per_iteration) +
         " interactions per iteration / " +
         (loop.fp_pipe_instructions ? std::to_string(*loop.fp_pipe_instructions) : std::string("uncounted")) +
         " multiply-class instructions per iteration" + loop_text;
}

std::vector<std::string> device_header_lines(const DeviceInfo& d, const std::string& backend) {
  if (d.cpu) return cpu_header_lines(d, *d.cpu, backend);
  const std::string driver = driver_text(d);
  return {backend + " | driver " + (driver.empty() ? "unknown" : driver) + " | SM clock " +
              mhz_text(d.sm_clock_khz) + ", memory " + mhz_text(d.memory_clock_khz) + " x " +
              (d.bus_width_bits ? std::to_string(*d.bus_width_bits) + " bit" : std::string("unknown width")),
          "copy ceiling " + fixed("%.0f GB/s", d.copy_peak_gbps) + ": " + copy_ceiling_label(d) +
              ", measured this run | theoretical peak " +
              (d.theoretical_peak_gbps ? fixed("%.0f GB/s", *d.theoretical_peak_gbps) : "unknown")};
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
  auto check = [&](const char* what, double hz, const std::optional<int>& max_khz) {
    if (hz <= 0 || !max_khz) return;  // not measured, or no maximum to compare with
    const double max_hz = 1e3 * *max_khz;
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
  const auto mhz = [](const std::optional<int>& khz) { return khz ? nlohmann::json(*khz / 1e3) : nlohmann::json(nullptr); };
  nlohmann::json out = {{"max_sm_mhz", mhz(d.sm_clock_khz)}, {"max_memory_mhz", mhz(d.memory_clock_khz)}};
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
