// Panel section: the tree (issue 32): theta and the memory orders, what a kick did and how long each stage
// took, and the live error against a float64 direct sum with what the check costs. Shown while the tree runs.
#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "app/viewer/viewer_panel.h"
#include "app/viewer/viewer_panel_widgets.h"
#include "sim/limits.h"

namespace coalesce {
namespace {

void draw_stage_line(const TreeReport& report) {
  std::string line;
  double total = 0.0;
  for (const auto& [name, ms] : report.stages_ms) {
    char part[48];
    std::snprintf(part, sizeof part, "%s%.*s %.2f", line.empty() ? "" : "  ", static_cast<int>(name.size()),
                  name.data(), ms);
    line += part;
    total += ms;
  }
  ImGui::TextWrapped("stages ms: %s  (= %.2f)", line.c_str(), total);  // 16M's five stages overrun a line
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "the last kick's stages: on a GPU the Morton keys and their sort, the tree's links, the multipoles'\n"
        "upsweep and the walk (CUDA events); on the CPU the build and the walk (wall time)");
}

void draw_count_line(const TreeReport& report) {
  const double targets = std::max(1, report.targets);
  const double pp = report.counts.particle_particle / targets, pn = report.counts.particle_node / targets;
  ImGui::Text("pulls per particle: %.0f body-body + %.0f body-node = %.0f", pp, pn, pp + pn);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "counted by the walk over its %d targets: a body-node pull is a multipole (monopole + quadrupole),\n"
        "one to a group of nearby targets; the all-pairs sum would be N = %d per particle",
        report.targets, report.targets);
}

void draw_error_lines(const ViewerModel& model) {
  if (!model.tree_error) {
    ImGui::TextDisabled("error: unknown (the first check runs within a second)");
    return;
  }
  const ErrorCheckResult& e = *model.tree_error;
  const ImVec4 colour = e.errors.p99 <= kDefaultThetaErrorGoal ? ImVec4(0.55f, 0.95f, 0.55f, 1.0f)
                                                               : ImVec4(1.0f, 0.6f, 0.4f, 1.0f);
  ImGui::TextColored(colour, "error p50 %.2e  p99 %.2e  max %.2e", e.errors.p50, e.errors.p99, e.errors.max);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "|a_tree - a_exact| / |a_exact| over %d random bodies (seed %llu) at step %llu, a_exact the float64\n"
        "direct sum over all N; theta %.3g is the default because p99 <= %.0e there (docs/perf.md)",
        e.errors.targets, static_cast<unsigned long long>(e.seed), static_cast<unsigned long long>(e.step),
        kDefaultTheta, kDefaultThetaErrorGoal);
  ImGui::PushTextWrapPos(0.0f);
  if (e.errors.p99 > kDefaultThetaErrorGoal)  // measured: the galaxies' evolution (docs/perf.md)
    ImGui::TextDisabled(
        "p99 over %.0e: the same theta errs more as the scene evolves; a smaller theta (the "
        "slider) holds the bound",
        kDefaultThetaErrorGoal);
  ImGui::TextDisabled("check %.1f ms every %.1f s = %.2f%% of the run's time (at most %.0f%%)", e.check_ms,
                      e.interval_s, 100.0 * e.share(), 100.0 * kMaxCheckShare);
  ImGui::PopTextWrapPos();
}

// The lesson's switch (issue 32 item 5): the same tree with its sources stored in random order, or its
// groups made of consecutive particles; GPU only (the CPU reference keeps both on the curve).
void draw_order_controls(const TreeSettings& settings, bool gpu, ViewerRequests& requests) {
  if (!gpu) ImGui::BeginDisabled();
  TreeSettings next = settings;
  ImGui::SetNextItemWidth(110.0f);
  enum_combo("sources", next.source_order, kSourceOrders);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        "where the walk's sorted copy of {x, y, z, m} lies in memory: along the curve, so a leaf's bodies\n"
        "are adjacent, or shuffled, the same entries at random places: the same pulls and bits, scattered\n"
        "loads (the Lab tab's tree-order experiment measures both)%s",
        gpu ? "" : "\nGPU only: the CPU reference keeps the curve");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(110.0f);
  enum_combo("groups", next.target_order, kTargetOrders);
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(
        "which 32 targets share a walk: curve neighbours (a small box) or 32 consecutive particles of the\n"
        "state (a box as wide as the state's order makes it, so the walk opens more nodes)");
  if (!gpu) ImGui::EndDisabled();
  if (next.source_order != settings.source_order || next.target_order != settings.target_order)
    requests.tree = next;
}

}  // namespace

void draw_tree_section(const ViewerModel& model, ViewerRequests& requests) {
  const ViewerSimulation& sim = *model.simulation;
  if (family_of(sim.force_method()) != ForceMethod::Tree) return;
  if (!ImGui::CollapsingHeader("Tree", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const TreeSettings& settings = sim.backend().tree_settings();
  float theta = static_cast<float>(settings.theta);
  ImGui::SetNextItemWidth(200.0f);
  // Linear in theta: the error grows about as theta^2 to theta^3, and 0 (the direct sum) must be reachable.
  if (ImGui::SliderFloat("theta", &theta, static_cast<float>(kThetaRange.lo),
                         static_cast<float>(kThetaRange.hi), "%.3g", ImGuiSliderFlags_AlwaysClamp)) {
    TreeSettings next = settings;
    next.theta = shown_value(theta);
    requests.tree = next;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "opening angle: a node pulls as one multipole when it is farther than its size / theta;\n"
        "smaller is more exact and slower, 0 is the direct sum (--theta)");
  ImGui::SameLine();
  // As the last kick built it: the CPU solver builds its own leaf size (kCpuLeafSize).
  const TreeSettings& built = model.tree ? model.tree->settings : settings;
  ImGui::TextDisabled("leaf %d  group %d", built.leaf_size, built.group_size);
  draw_order_controls(settings, sim.is_cuda(), requests);
  if (!model.tree) {
    ImGui::TextDisabled("no kick yet");
    return;
  }
  draw_stage_line(*model.tree);
  draw_count_line(*model.tree);
  draw_error_lines(model);
}

}  // namespace coalesce
