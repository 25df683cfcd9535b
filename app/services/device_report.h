// The device block of every report (bench, lab and screenshot JSON) and the driver line the tables and the
// panel show: written once, so every report names the same facts the same way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kernels/counters/hardware_counters.h"  // plain C++: what a counter pass measured
#include "sim/backend.h"

namespace coalesce {

// More than this fraction between a measured clock and its maximum makes a run's numbers suspect: the
// note in bench's, lab's and the screenshot's clocks blocks.
inline constexpr double kClockNoteFraction = 0.05;
// (measured - maximum) / maximum when that is beyond kClockNoteFraction either way; none when it is
// within, or when the maximum is unknown (0). The one test behind every report's clock note.
std::optional<double> clock_off_maximum(double measured, double maximum);

// An optional measurement as JSON: its value, or null when unknown (never 0).
template <class T>
nlohmann::json or_null(const std::optional<T>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// {"gpu", "name", "driver", "cuda_driver", "cuda_runtime", "multiprocessors", "memory_bytes", "sm_clock_khz",
//  "memory_clock_khz", "bus_width_bits", "theoretical_peak_gbps", "copy_peak_gbps", "cpu"}: docs/bench-json.md.
// Unknown values, and strings that are empty, are null; "cpu" is the CPU's facts, null on a GPU.
nlohmann::json device_json(const DeviceInfo& device);

// "580.159.04 / CUDA 13.0" (the kernel driver and the CUDA version it supports); "" for the CPU.
std::string driver_text(const DeviceInfo& device);

// The CPU's last-level cache in words: "the 32 MiB L3", or "the last-level cache, size unknown".
std::string cache_text(const CpuFacts& cpu);

// What the copy ceiling is, for captions: "device-to-device copy" or "CPU memory copy, 2 threads".
std::string copy_ceiling_label(const DeviceInfo& device);
// How it was measured, in one sentence (the bench and lab JSON's method block).
std::string copy_ceiling_method(const DeviceInfo& device);
// The kernels compared with a ceiling, in words: "integrate, attractor forces" (sim/memory_ceiling.h).
std::string ceiling_kernels(Ceiling ceiling, bool gpu);
// How a ceiling was measured on this device, in one sentence (copy_ceiling_method for the copy).
std::string ceiling_method(const DeviceInfo& device, Ceiling ceiling);
// {"copy": {"gbps", "kernels", "method"}, "in-place": ..., "to-other": ...}: every ceiling this device
// measured (the GPU's copy alone; the others null there), what each is compared with and how it was measured.
nlohmann::json ceilings_json(const DeviceInfo& device);
// How the CPU's all-pairs issue limit in `precision` is computed, in one sentence, with this machine's
// numbers.
std::string issue_limit_formula(const CpuFacts& cpu, Precision precision);

// The header lines of a report's table: the backend and device; the clocks, or the CPU's cores, clock,
// SIMD width and issue limit; the copy ceiling and what it is. Unknown values read "unknown", never 0.
std::vector<std::string> device_header_lines(const DeviceInfo& device, const std::string& backend_name);

// A row's "counters" block (docs/bench-json.md): {"available": true, the hardware's bytes, sectors,
// requests and wavefronts, their ratios, the clocks} or {"available": false, "reason": "..."}.
// `formula_bytes` is the row's byte formula; ratios with a zero denominator are null.
nlohmann::json counters_json(const CounterReading& reading, double formula_bytes);

// The run's "clocks" block: the SM and memory clocks the counter passes measured (averaged over the rows,
// weighted by kernel time) beside the device's maximums, and a note when they differ by more than 5%.
// `why_none` says why nothing was measured, when no row has counters.
nlohmann::json clocks_json(const DeviceInfo& device, const std::vector<CounterReading>& rows,
                           const std::string& why_none);
// The note alone ("" when the clocks agree within 5% or were not measured), for the tables.
std::string clocks_note(const DeviceInfo& device, const std::vector<CounterReading>& rows);

// Table cells: "hw/formula" as "1.02", sectors per request as "4.0/4.0" (loads/stores); "-" where none.
std::string counters_ratio_cell(const CounterReading& reading, double formula_bytes);
std::string sectors_cell(const CounterReading& reading);
// Shared-memory wavefronts per request as "1.0/32.0" (loads/stores); "-" where none.
std::string wavefronts_cell(const CounterReading& reading);

}  // namespace coalesce
