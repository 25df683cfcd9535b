// Panel sections: the live per-kernel table with its history plots, and the Compare bars per layout and
// precision.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <imgui.h>

#include "app/viewer/viewer_panel.h"
#include "app/services/device_report.h"
#include "sim/byte_counts.h"
#include "sim/memory_ceiling.h"

namespace coalesce {
namespace {

constexpr KernelKind kTableKernels[] = {KernelKind::Forces, KernelKind::Integrate, KernelKind::Pack,
                                        KernelKind::Convert};
constexpr KernelKind kCompareKernels[] = {KernelKind::Integrate, KernelKind::Pack, KernelKind::Forces};

std::string kernel_label(KernelKind kind) {
  return std::string(to_string(kind));
}

// Why the all-pairs forces row shows interactions/s: its byte formula, next to its N^2 interactions.
std::string compute_bound_note(Layout layout, Precision precision) {
  const ByteFormula formula =
      kernel_byte_formula(KernelKind::Forces, layout, ForceMethod::OneSidedAllPairs, precision);
  return "all-pairs forces are compute-bound (" + std::string(formula.interactions) + " interactions on " +
         std::to_string(formula.bytes_per_particle()) +
         " N bytes):\nGB/s says nothing about this kernel, interactions/s does";
}

}  // namespace

// Generated from sim/byte_counts.h, the formulas the backends count bytes with.
std::string byte_formula(KernelKind kind, Layout layout, ForceMethod method, Precision precision,
                         double scratch_moved, std::string_view scratch_what) {
  if (kind == KernelKind::Convert) return convert_formula_summary(precision);
  if (kind == KernelKind::Forces)
    return forces_byte_formula(layout, method, precision, scratch_moved / 2, scratch_what).text();
  return kernel_byte_formula(kind, layout, method, precision).text();
}

namespace {
// The tooltip's formula, named by its precision: the same kernel moves twice the bytes in fp64.
std::string formula_tooltip(KernelKind kind, Layout layout, ForceMethod method, Precision precision,
                            const KernelStats& latest) {
  return std::string(to_string(precision)) + ": " +
         byte_formula(kind, layout, method, precision, latest.scratch_bytes, latest.scratch_what);
}
}  // namespace

std::string compare_row_label(Layout layout, Precision precision) {
  return std::string(to_string(layout)) + " " + std::string(to_string(precision));
}

void draw_kernel_section(const ViewerModel& model) {
  if (!ImGui::CollapsingHeader("Kernels (live)", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextDisabled("latest: moving average of about 10 launches");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("exponential moving average, weight 0.1 per launch, restarted at each layout switch;\n"
                      "Compare below keeps each layout's own average (weight 0.2) after a switch");
  const ViewerSimulation& sim = *model.simulation;
  const Layout layout = sim.backend().layout();
  const Precision precision = sim.backend().precision();
  const ForceMethod method = sim.force_method();
  const DeviceInfo& device = sim.backend().device_info();
  ImGui::Text("layout %s   precision %s", std::string(to_string(layout)).c_str(),
              std::string(to_string(precision)).c_str());
  // The all-pairs scheme the forces row times, and what auto measured to choose it.
  if (!sim.forces_account().empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("%s", sim.forces_account().c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("interactions/s counts N^2 per step for both schemes; mutual evaluates each pair once,\n"
                        "N(N-1)/2 pair evaluations per step (bench's pairs/s column)");
  }
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("kernels", 5, flags)) {
    ImGui::TableSetupColumn("kernel");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("GB/s");
    ImGui::TableSetupColumn("% ceiling");
    ImGui::TableSetupColumn("interactions/s");
    ImGui::TableHeadersRow();
    for (KernelKind kind : kTableKernels) {
      const KernelStats& s = model.stats->kernel(kind);
      if (!s.seen()) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%s", kernel_label(kind).c_str());
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s", formula_tooltip(kind, layout, method, precision, s).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", s.milliseconds.value());
      const bool by_interactions = headline_metric(kind, method) == KernelMetric::InteractionsPerSecond;
      ImGui::TableNextColumn();
      if (by_interactions) {
        ImGui::TextDisabled("-");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", compute_bound_note(layout, precision).c_str());
      } else {
        ImGui::Text("%.4g", s.gigabytes_per_second.value());
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s\n%.3g bytes per launch",
                            formula_tooltip(kind, layout, method, precision, s).c_str(), s.bytes);
      }
      ImGui::TableNextColumn();
      // Each row against the ceiling that moves bytes as its kernel does (the copy on a GPU).
      const Ceiling ceiling = kernel_ceiling(kind, device.gpu);
      const double ceiling_gbps = device.ceiling_gbps(ceiling);
      if (ceiling_gbps > 0 && !by_interactions) {
        ImGui::Text("%.1f%% %s", 100.0 * s.gigabytes_per_second.value() / ceiling_gbps,
                    std::string(ceiling_info(ceiling).name).c_str());
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s ceiling %.1f GB/s: %s", std::string(ceiling_info(ceiling).name).c_str(),
                            ceiling_gbps, ceiling_method(device, ceiling).c_str());
      }
      ImGui::TableNextColumn();
      if (kind == KernelKind::Forces) ImGui::Text("%.3g", s.interactions_per_second.value());
    }
    ImGui::EndTable();
  }
  // Two plots per row keep the history visible without pushing the controls off screen.
  int plotted = 0;
  const float plot_width = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
  for (KernelKind kind : kTableKernels) {
    const KernelStats& s = model.stats->kernel(kind);
    const bool by_interactions = headline_metric(kind, method) == KernelMetric::InteractionsPerSecond;
    const std::deque<float>& source = by_interactions ? s.history_interactions : s.history_gbps;
    if (source.size() < 2) continue;
    if (plotted++ % 2 == 1) ImGui::SameLine();
    const std::vector<float> history(source.begin(), source.end());
    const float top = std::max(*std::max_element(history.begin(), history.end()) * 1.15f, 1e-3f);
    const std::string overlay = kernel_label(kind) + (by_interactions ? " interactions/s" : " GB/s");
    ImGui::PlotLines(("##h" + kernel_label(kind)).c_str(), history.data(), static_cast<int>(history.size()),
                     0, overlay.c_str(), 0.0f, top, ImVec2(plot_width, 32.0f));
  }
}

// The number a Compare bar shows: GB/s, or interactions/s where bytes say nothing (all-pairs forces).
double compare_value(const CompareEntry& c, KernelMetric metric) {
  return metric == KernelMetric::InteractionsPerSecond ? c.interactions_per_second : c.gigabytes_per_second;
}

// The precisions Compare shows rows of: the run's own always, another once a kernel has run in it.
std::vector<Precision> compare_precisions(const ViewerModel& model) {
  const Precision current = model.simulation->backend().precision();
  std::vector<Precision> shown;
  for (Precision p : kAllPrecisions)
    if (p == current || model.stats->measured(p)) shown.push_back(p);
  return shown;
}

void draw_compare_section(const ViewerModel& model) {
  if (!ImGui::CollapsingHeader("Compare layouts and precisions", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const DeviceInfo& device = model.simulation->backend().device_info();
  const double copy_peak = device.copy_peak_gbps;
  const ForceMethod method = model.simulation->force_method();
  const Precision current = model.simulation->backend().precision();
  const std::vector<Precision> precisions = compare_precisions(model);
  ImGui::TextDisabled("average of each row's last ~5 launches, kept");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "exponential moving average, weight 0.2 per launch, of every launch that ran in the layout\n"
        "and precision; the live table above restarts at each switch, so the two differ while a\n"
        "row warms up. A switch of precision keeps the other precision's rows");
  ImGui::PushTextWrapPos(0.0f);
  if (copy_peak > 0 && device.gpu)
    ImGui::TextDisabled("full bar: the copy ceiling (%.0f GB/s) for GB/s, the best row for interactions/s",
                        copy_peak);
  else if (copy_peak > 0)
    ImGui::TextDisabled(
        "full bar: each kernel's ceiling for GB/s (in-place %.1f GB/s for integrate and forces, "
        "to-other %.1f for pack), the best row for interactions/s",
        device.ceiling_gbps(Ceiling::InPlace), device.ceiling_gbps(Ceiling::ToOther));
  else
    ImGui::TextDisabled("full bar: the best row");
  ImGui::PopTextWrapPos();
  // One scale per kernel: its ceiling, or the best row where that is higher; for interactions/s, the best
  // row.
  double top[kKernelKinds] = {};
  for (KernelKind kind : kCompareKernels) {
    const KernelMetric metric = headline_metric(kind, method);
    top[static_cast<int>(kind)] = metric == KernelMetric::GigabytesPerSecond
                                      ? device.ceiling_gbps(kernel_ceiling(kind, device.gpu))
                                      : 0.0;
    for (Precision precision : precisions)
      for (Layout layout : kAllLayouts)
        top[static_cast<int>(kind)] =
            std::max(top[static_cast<int>(kind)],
                     compare_value(model.stats->compare(layout, precision, kind), metric));
  }
  float label_width = 0.0f;
  for (Precision precision : precisions)
    for (Layout layout : kAllLayouts)
      label_width =
          std::max(label_width, ImGui::CalcTextSize(compare_row_label(layout, precision).c_str()).x);
  if (!ImGui::BeginTable("compare", 4, ImGuiTableFlags_SizingStretchSame)) return;
  ImGui::TableSetupColumn("layout", ImGuiTableColumnFlags_WidthFixed, label_width + 4.0f);
  for (KernelKind kind : kCompareKernels) ImGui::TableSetupColumn(kernel_label(kind).c_str());
  ImGui::TableHeadersRow();
  // The units on a row of their own: "interactions/s" written out fits there, never "int/s".
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  for (KernelKind kind : kCompareKernels) {
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", headline_metric(kind, method) == KernelMetric::InteractionsPerSecond
                                  ? "interactions/s"
                                  : "GB/s");
  }
  for (Precision precision : precisions) {
    for (Layout layout : kAllLayouts) {
      const std::string label = compare_row_label(layout, precision);
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      // The other precision's rows are kept numbers, not the run's own: quieter, still legible.
      if (precision == current)
        ImGui::Text("%s", label.c_str());
      else
        ImGui::TextColored(ImVec4(0.75f, 0.8f, 0.9f, 1.0f), "%s", label.c_str());
      for (KernelKind kind : kCompareKernels) {
        ImGui::TableNextColumn();
        const CompareEntry& c = model.stats->compare(layout, precision, kind);
        const KernelMetric metric = headline_metric(kind, method);
        const double value = compare_value(c, metric);
        const double scale = top[static_cast<int>(kind)];
        char overlay[48] = "-";
        if (c.measured) std::snprintf(overlay, sizeof overlay, "%.4g", value);
        ImGui::ProgressBar(scale > 0 ? static_cast<float>(value / scale) : 0.0f, ImVec2(-1.0f, 0.0f),
                           overlay);
        if (c.measured && ImGui::IsItemHovered()) {
          if (metric == KernelMetric::InteractionsPerSecond) {
            ImGui::SetTooltip("%s %s: %.3g interactions/s, %.3f ms (full bar = best row)\n%s", label.c_str(),
                              kernel_label(kind).c_str(), value, c.milliseconds,
                              compute_bound_note(layout, precision).c_str());
          } else {
            const Ceiling ceiling = kernel_ceiling(kind, device.gpu);
            ImGui::SetTooltip("%s %s: %.1f GB/s, %.3f ms (full bar = the %s ceiling, %.1f GB/s)",
                              label.c_str(), kernel_label(kind).c_str(), value, c.milliseconds,
                              std::string(ceiling_info(ceiling).name).c_str(), device.ceiling_gbps(ceiling));
          }
        }
      }
    }
  }
  ImGui::EndTable();
  bool empty_row = false;
  for (Layout layout : kAllLayouts)
    empty_row = empty_row || !model.stats->compare(layout, current, kCompareKernels[0]).measured;
  ImGui::PushTextWrapPos(0.0f);
  if (empty_row)
    ImGui::TextDisabled("empty rows: press %s to run a layout, or 'sweep layouts' below",
                        std::string(kLayoutKeys).c_str());
  if (precisions.size() < kPrecisionCount)
    ImGui::TextDisabled("P switches precision (its rows join these), or 'sweep x precisions' below");
  ImGui::PopTextWrapPos();
}

}  // namespace coalesce
