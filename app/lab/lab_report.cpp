// Renders a lab run as a fixed-width table and as JSON (nlohmann), with the byte formulas and articles.
#include "app/lab/lab_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "app/services/device_report.h"

namespace coalesce {
namespace {

std::string format(const char* fmt, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), fmt, value);
  return text;
}

std::string pad(std::string text, std::size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string pct_text(double pct) {
  return pct < 0 ? "-" : format("%.1f%%", pct);
}

}  // namespace

std::string lab_table(const lab::LabRun& run, const std::vector<const lab::LabExperiment*>& experiments) {
  std::string out;
  const std::optional<double>& peak = run.device.theoretical_peak_gbps;
  const std::string driver = driver_text(run.device);
  out += "GPU: " + run.device.name + " (" + std::to_string(run.device.multiprocessors) + " SMs), driver " +
         (driver.empty() ? "unknown" : driver) + ", theoretical peak " +
         (peak ? format("%.0f GB/s", *peak) : std::string("unknown")) + "\n";
  out += "copy ceiling (cudaMemcpy D2D, bytes read + written, this run): " +
         format("%.0f GB/s", run.copy_gbps) + (peak ? format(" = %.1f%% of peak", 100.0 * run.copy_gbps / *peak) : "") +
         "\n";
  out += "side " + std::to_string(run.settings.side) + ", 1-D arrays of " +
         std::to_string(run.settings.elements()) + " floats, median of " +
         std::to_string(run.settings.repeats) + " repeats after warm-up; 1 GB = 1e9 B; particles in " +
         std::string(to_string(run.settings.precision)) + "\n";
  std::vector<CounterReading> readings;
  for (const lab::LabRow& row : run.rows) readings.push_back(row.counters);
  if (!run.counters_reason.empty())
    out += run.counters_reason + "\n";
  else
    out += "hw/f: DRAM bytes the hardware counted / formula bytes; sect/req: L1 sectors per global load/store "
           "request; wf/req: shared-memory wavefronts per load/store request (1.0 = no bank conflict)\n";
  const std::string clocks = clocks_note(run.device, readings);
  if (!clocks.empty()) out += "note: " + clocks + "\n";
  out += "\n";
  // Columns as wide as their longest entry ("fp64-vectors" ran into its variant at a fixed 11).
  std::size_t variant_width = 10, experiment_width = 11;
  for (const lab::LabRow& row : run.rows) {
    variant_width = std::max(variant_width, row.variant.size() + 2);
    experiment_width = std::max(experiment_width, row.experiment.size() + 2);
  }
  for (const lab::LabExperiment* e : experiments) experiment_width = std::max(experiment_width, e->name.size() + 2);
  const std::size_t widths[] = {experiment_width, variant_width, 10, 9, 8, 6, 6, 10, 10};
  out += pad("experiment", widths[0]) + pad("variant", widths[1]) + pad("time ms", widths[2]) +
         pad("GB/s", widths[3]) + pad("% copy", widths[4]) + pad("check", widths[5]) + pad("hw/f", widths[6]) +
         pad("sect/req", widths[7]) + pad("wf/req", widths[8]) + "article's figure\n";
  for (const lab::LabRow& row : run.rows) {
    std::string article = row.article;
    if (!row.note.empty()) article = row.note + (article.empty() ? "" : "; " + article);
    out += pad(row.experiment, widths[0]) + pad(row.variant, widths[1]) +
           pad(format("%.4f", row.time_ms), widths[2]) + pad(format("%.0f", row.gbps), widths[3]) +
           pad(pct_text(row.pct_copy), widths[4]) + pad(row.check_ok ? "ok" : "FAIL", widths[5]) +
           pad(counters_ratio_cell(row.counters, row.bytes), widths[6]) + pad(sectors_cell(row.counters), widths[7]) +
           pad(wavefronts_cell(row.counters), widths[8]) + article + "\n";
  }
  out += "\nbytes and lessons:\n";
  for (const lab::LabExperiment* e : experiments)
    out += "  " + pad(e->name, widths[0]) + e->byte_formula + ": " + lab::lab_lesson(*e, run.rows) + "\n";
  return out;
}

std::string lab_json(const lab::LabRun& run, const std::vector<const lab::LabExperiment*>& experiments) {
  using nlohmann::json;
  json doc;
  doc["schema"] = "coalesce-lab/2";
  doc["device"] = device_json(run.device);
  doc["date"] = run.date_utc;
  doc["copy_ceiling_gbps"] = run.copy_gbps;
  doc["settings"] = {{"side", run.settings.side},
                     {"elements", run.settings.elements()},
                     {"repeats", run.settings.repeats},
                     {"seed", run.settings.seed},
                     {"precision", std::string(to_string(run.settings.precision))}};
  json list = json::array();
  for (const lab::LabExperiment* e : experiments)
    list.push_back({{"name", e->name},
                    {"title", e->title},
                    {"byte_formula", e->byte_formula},
                    {"lesson", lab::lab_lesson(*e, run.rows)}});
  doc["experiments"] = list;
  json rows = json::array();
  for (const lab::LabRow& r : run.rows) {
    rows.push_back({{"experiment", r.experiment},
                    {"variant", r.variant},
                    {"time_ms", r.time_ms},
                    {"bytes", r.bytes},
                    {"gbps", r.gbps},
                    {"pct_copy", r.pct_copy < 0 ? json(nullptr) : json(r.pct_copy)},
                    {"byte_formula", r.byte_formula},
                    {"article", r.article},
                    {"note", r.note},
                    {"check_ok", r.check_ok},
                    {"counters", counters_json(r.counters, r.bytes)}});
  }
  doc["rows"] = rows;
  std::vector<CounterReading> readings;
  for (const lab::LabRow& r : run.rows) readings.push_back(r.counters);
  doc["clocks"] = clocks_json(run.device, readings, run.counters_reason);
  return doc.dump(2) + "\n";
}

}  // namespace coalesce
