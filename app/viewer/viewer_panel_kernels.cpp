// Panel sections: the live per-kernel table with its history plots, and the Compare bars per layout.
#include <algorithm>
#include <cstdio>
#include <vector>

#include <imgui.h>

#include "app/viewer/viewer_panel.h"
#include "sim/byte_counts.h"

namespace coalesce {
namespace {

constexpr KernelKind kTableKernels[] = {KernelKind::Forces, KernelKind::Integrate, KernelKind::Pack,
                                        KernelKind::Convert};
constexpr KernelKind kCompareKernels[] = {KernelKind::Integrate, KernelKind::Pack, KernelKind::Forces};

std::string kernel_label(KernelKind kind) {
  return std::string(to_string(kind));
}

// Why the all-pairs forces row shows interactions/s: its byte formula, next to its N^2 interactions.
std::string compute_bound_note(Layout layout) {
  const ByteFormula formula = kernel_byte_formula(KernelKind::Forces, layout, Solver::AllPairs);
  return "all-pairs forces are compute-bound (" + std::string(formula.interactions) + " interactions on " +
         std::to_string(formula.bytes_per_particle()) +
         " N bytes):\nGB/s says nothing about this kernel, interactions/s does";
}

}  // namespace

// Generated from sim/byte_counts.h, the formulas the backends count bytes with.
std::string byte_formula(KernelKind kind, Layout layout, Solver solver) {
  if (kind == KernelKind::Convert) return convert_formula_summary();
  return kernel_byte_formula(kind, layout, solver).text();
}

void draw_kernel_section(const ViewerModel& model) {
  if (!ImGui::CollapsingHeader("Kernels (live)", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextDisabled("latest: moving average of about 10 launches");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("exponential moving average, weight 0.1 per launch, restarted at each layout switch;\n"
                      "Compare below keeps each layout's own average (weight 0.2) after a switch");
  const ViewerSimulation& sim = *model.simulation;
  const Layout layout = sim.backend().layout();
  const Solver solver = sim.scene().params.solver;
  const double copy_peak = sim.backend().device_info().copy_peak_gbps;
  ImGui::Text("layout %s", std::string(to_string(layout)).c_str());
  const ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("kernels", 5, flags)) {
    ImGui::TableSetupColumn("kernel");
    ImGui::TableSetupColumn("ms");
    ImGui::TableSetupColumn("GB/s");
    ImGui::TableSetupColumn("% copy");
    ImGui::TableSetupColumn("interactions/s");
    ImGui::TableHeadersRow();
    for (KernelKind kind : kTableKernels) {
      const KernelStats& s = model.stats->kernel(kind);
      if (!s.seen()) continue;
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%s", kernel_label(kind).c_str());
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", byte_formula(kind, layout, solver).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.3f", s.milliseconds.value());
      const bool by_interactions = headline_metric(kind, solver) == KernelMetric::InteractionsPerSecond;
      ImGui::TableNextColumn();
      if (by_interactions) {
        ImGui::TextDisabled("-");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", compute_bound_note(layout).c_str());
      } else {
        ImGui::Text("%.4g", s.gigabytes_per_second.value());
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip("%s\n%.3g bytes per launch", byte_formula(kind, layout, solver).c_str(), s.bytes);
      }
      ImGui::TableNextColumn();
      if (copy_peak > 0 && !by_interactions)
        ImGui::Text("%.1f%%", 100.0 * s.gigabytes_per_second.value() / copy_peak);
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
    const bool by_interactions = headline_metric(kind, solver) == KernelMetric::InteractionsPerSecond;
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

void draw_compare_section(const ViewerModel& model) {
  if (!ImGui::CollapsingHeader("Compare layouts", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const double copy_peak = model.simulation->backend().device_info().copy_peak_gbps;
  const Solver solver = model.simulation->scene().params.solver;
  ImGui::TextDisabled("average of each layout's last ~5 launches, kept");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("exponential moving average, weight 0.2 per launch, of every launch that ran in the layout;\n"
                      "the live table above restarts at each switch, so the two differ while a layout warms up");
  ImGui::PushTextWrapPos(0.0f);
  if (copy_peak > 0)
    ImGui::TextDisabled("full bar: the copy ceiling (%.0f GB/s) for GB/s, the best layout for interactions/s",
                        copy_peak);
  else
    ImGui::TextDisabled("full bar: the best layout");
  ImGui::PopTextWrapPos();
  // One scale per kernel: the copy peak, or the best layout where that is higher (CPU caches); for
  // interactions/s, the best layout.
  double top[kKernelKinds] = {};
  for (KernelKind kind : kCompareKernels) {
    const KernelMetric metric = headline_metric(kind, solver);
    top[static_cast<int>(kind)] = metric == KernelMetric::GigabytesPerSecond ? copy_peak : 0.0;
    for (Layout layout : kAllLayouts) {
      top[static_cast<int>(kind)] =
          std::max(top[static_cast<int>(kind)], compare_value(model.stats->compare(layout, kind), metric));
    }
  }
  if (!ImGui::BeginTable("compare", 4, ImGuiTableFlags_SizingStretchSame)) return;
  ImGui::TableSetupColumn("layout", ImGuiTableColumnFlags_WidthFixed, 48.0f);
  for (KernelKind kind : kCompareKernels) ImGui::TableSetupColumn(kernel_label(kind).c_str());
  ImGui::TableHeadersRow();
  // The units on a row of their own: "interactions/s" written out fits there, never "int/s".
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  for (KernelKind kind : kCompareKernels) {
    ImGui::TableNextColumn();
    ImGui::TextDisabled("%s", headline_metric(kind, solver) == KernelMetric::InteractionsPerSecond ? "interactions/s"
                                                                                                   : "GB/s");
  }
  for (Layout layout : kAllLayouts) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s", std::string(to_string(layout)).c_str());
    for (KernelKind kind : kCompareKernels) {
      ImGui::TableNextColumn();
      const CompareEntry& c = model.stats->compare(layout, kind);
      const KernelMetric metric = headline_metric(kind, solver);
      const double value = compare_value(c, metric);
      const double scale = top[static_cast<int>(kind)];
      char overlay[48] = "-";
      if (c.measured) std::snprintf(overlay, sizeof overlay, "%.4g", value);
      ImGui::ProgressBar(scale > 0 ? static_cast<float>(value / scale) : 0.0f, ImVec2(-1.0f, 0.0f), overlay);
      if (c.measured && ImGui::IsItemHovered()) {
        if (metric == KernelMetric::InteractionsPerSecond) {
          ImGui::SetTooltip("%s %s: %.3g interactions/s, %.3f ms (full bar = best layout)\n%s",
                            std::string(to_string(layout)).c_str(), kernel_label(kind).c_str(), value,
                            c.milliseconds, compute_bound_note(layout).c_str());
        } else {
          ImGui::SetTooltip("%s %s: %.1f GB/s, %.3f ms%s", std::string(to_string(layout)).c_str(),
                            kernel_label(kind).c_str(), value, c.milliseconds,
                            copy_peak > 0 ? " (full bar = copy peak)" : "");
        }
      }
    }
  }
  ImGui::EndTable();
  bool empty_row = false;
  for (Layout layout : kAllLayouts) empty_row = empty_row || !model.stats->compare(layout, kCompareKernels[0]).measured;
  ImGui::PushTextWrapPos(0.0f);
  if (empty_row)
    ImGui::TextDisabled("empty rows: press %s to run a layout, or 'sweep layouts' below",
                        std::string(kLayoutKeys).c_str());
  ImGui::PopTextWrapPos();
}

}  // namespace coalesce
