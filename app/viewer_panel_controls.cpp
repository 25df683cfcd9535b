// Panel section: every control of SPEC section 5, each also reachable by its key where it has one.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/viewer_panel.h"

namespace coalesce {
namespace {

template <typename Enum, size_t Count>
bool enum_combo(const char* label, Enum& value, const std::array<Enum, Count>& all) {
  bool changed = false;
  if (ImGui::BeginCombo(label, std::string(to_string(value)).c_str())) {
    for (Enum option : all) {
      if (ImGui::Selectable(std::string(to_string(option)).c_str(), option == value)) {
        changed = option != value;
        value = option;
      }
    }
    ImGui::EndCombo();
  }
  return changed;
}

void draw_simulation_controls(const ViewerModel& model, ViewerControls& controls, ViewerRequests& requests) {
  ViewerSimulation& sim = *model.simulation;
  Layout layout = sim.backend().layout();
  if (enum_combo("layout (1/2/3)", layout, kAllLayouts)) requests.layout = layout;
  enum_combo("pack variant", controls.pack, kAllPackVariants);
  Solver solver = sim.scene().params.solver;
  if (enum_combo("solver", solver, std::array<Solver, 2>{Solver::AllPairs, Solver::Attractors}))
    requests.solver = solver;
  if (ImGui::BeginCombo("scene", sim.scene().name.c_str())) {
    for (const std::string& name : preset_names()) {
      if (ImGui::Selectable(name.c_str(), name == sim.scene().name)) requests.scene = name;
    }
    ImGui::EndCombo();
  }
  ImGui::SetNextItemWidth(150.0f);
  ImGui::InputInt("##N", &controls.particles_input, 1024, 65536);
  ImGui::SameLine();
  if (ImGui::Button("set N (re-seeds)") && controls.particles_input > 0)
    requests.particles = controls.particles_input;
  SimParams& params = sim.params();
  ImGui::SliderFloat("dt", &params.dt, 1e-5f, 1e-2f, "%.3g", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("softening", &params.softening, 1e-4f, 0.5f, "%.3g", ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("brightness", &controls.brightness, 0.1f, 4.0f, "%.2f", ImGuiSliderFlags_Logarithmic);
}

void draw_run_controls(ViewerControls& controls, ViewerRequests& requests, bool sweeping) {
  ImGui::Checkbox("pause (Space)", &controls.paused);
  ImGui::SameLine();
  if (ImGui::Button("step (S)")) requests.step_once = true;
  ImGui::SameLine();
  if (ImGui::Button("reset")) requests.reset = true;
  ImGui::SameLine();
  if (ImGui::Button("camera (R)")) requests.reset_camera = true;
  if (sweeping) ImGui::BeginDisabled();
  if (ImGui::Button("sweep layouts")) requests.sweep = true;
  if (sweeping) ImGui::EndDisabled();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("runs AoS, SoA and float4 for 2 s each and fills Compare");
  ImGui::SetNextItemWidth(260.0f);
  ImGui::InputText("##shot", &controls.screenshot_path);
  ImGui::SameLine();
  if (ImGui::Button("screenshot (F12)")) requests.screenshot = true;
  ImGui::TextDisabled("drag: rotate  right-drag: pan  wheel: zoom  H: hide panel");
}

}  // namespace

void draw_controls_section(const ViewerModel& model, ViewerControls& controls, ViewerRequests& requests) {
  if (!ImGui::CollapsingHeader("Controls", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushItemWidth(200.0f);
  draw_simulation_controls(model, controls, requests);
  ImGui::PopItemWidth();
  draw_run_controls(controls, requests, model.sweep && model.sweep->active());
  if (!model.last_screenshot.empty())
    ImGui::TextDisabled("last screenshot: %s", model.last_screenshot.c_str());
}

}  // namespace coalesce
