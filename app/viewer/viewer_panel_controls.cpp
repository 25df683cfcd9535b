// Panel section: every control of the panel (docs/viewer.md), each also reachable by its key where it has one.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <imgui.h>
#include <imgui_stdlib.h>

#include "app/viewer/viewer_panel.h"
#include "app/viewer/viewer_panel_widgets.h"
#include "sim/limits.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

// Drawing fewer than N keeps the frame rate where the GPU's vertex stage bounds it (16M on an H100).
void draw_limit_controls(ViewerControls& controls, ViewerRequests& requests, int particles) {
  bool draw_all = controls.draw_limit == 0;
  // A limit at or above N draws them all too: say so, rather than look as if some were missing.
  const bool limit_covers_n = !draw_all && controls.draw_limit >= particles;
  if (ImGui::Checkbox(limit_covers_n ? "draw all particles (all N drawn: the limit is above N)" : "draw all particles",
                      &draw_all))
    requests.draw_limit = draw_all ? 0 : std::max(1, controls.draw_limit_input);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Off: beyond the limit every k-th particle is drawn with k times the light (k <= 128).\n"
        "The simulation always steps all N; the draw, not the step, is what a large N costs a frame.");
  if (draw_all) return;
  ImGui::SetNextItemWidth(150.0f);
  ImGui::InputInt("##draw_limit", &controls.draw_limit_input, 65536, 1 << 20);
  ImGui::SameLine();
  if (ImGui::Button("set draw limit") && controls.draw_limit_input > 0)
    requests.draw_limit = controls.draw_limit_input;
}

void draw_simulation_controls(const ViewerModel& model, ViewerControls& controls, ViewerRequests& requests) {
  const ViewerSimulation& sim = *model.simulation;
  Layout layout = sim.backend().layout();
  if (enum_combo(("layout (" + std::string(kLayoutKeys) + ")").c_str(), layout, kAllLayouts))
    requests.layout = layout;
  Precision precision = sim.backend().precision();
  if (enum_combo("precision (P)", precision, kAllPrecisions)) requests.precision = precision;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "converts the state in place: fp32 -> fp64 is exact; fp64 -> fp32 rounds each value to\n"
        "the nearest float, and the notice says how many changed. Compare keeps both precisions' rows");
  enum_combo("pack variant", controls.pack, kAllPackVariants);
  // One entry per solver family (its first row), under its --solver name.
  const ForceMethod family = family_of(sim.force_method());
  if (ImGui::BeginCombo("solver", std::string(method_info(family).solver_name).c_str())) {
    for (const ForceMethodInfo& row : kForceMethodTable) {
      if (row.method != family_of(row.method)) continue;
      if (ImGui::Selectable(std::string(row.solver_name).c_str(), row.method == family) &&
          row.method != family)
        requests.solver = row.method;
    }
    ImGui::EndCombo();
  }
  if (ImGui::BeginCombo("scene", sim.scene().name.c_str())) {
    for (const std::string& name : preset_names()) {
      if (ImGui::Selectable(name.c_str(), name == sim.scene().name)) requests.scene = name;
    }
    ImGui::EndCombo();
  }
  if (!sim.state_file().empty())
    ImGui::TextDisabled("initial state: %s", printable(sim.state_file()).c_str());
  ImGui::SetNextItemWidth(150.0f);
  ImGui::InputInt("##N", &controls.particles_input, 1024, 65536);
  controls.particles_input = std::clamp(controls.particles_input, 1, kMaxParticles);  // sim/limits.h
  ImGui::SameLine();
  if (ImGui::Button("set N (re-seeds)") && controls.particles_input > 0)
    requests.particles = controls.particles_input;
  draw_limit_controls(controls, requests, sim.backend().particle_count());
  // AlwaysClamp: a Ctrl-click typed value stays inside the slider, which lies inside sim/limits.h's ranges.
  constexpr ImGuiSliderFlags kClampedLog = ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp;
  float dt = static_cast<float>(sim.scene().params.dt);
  float softening = static_cast<float>(sim.scene().params.softening);
  if (ImGui::SliderFloat("dt", &dt, 1e-5f, 1e-2f, "%.3g", kClampedLog)) requests.dt = shown_value(dt);
  if (ImGui::SliderFloat("softening", &softening, 1e-4f, 0.5f, "%.3g", kClampedLog))
    requests.softening = shown_value(softening);
  ImGui::SliderFloat("brightness", &controls.brightness, kMinBrightness, kMaxBrightness, "%.2f",
                     ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
}

// A clip: one simulation step per recorded frame, so it plays at its own rate whatever the GPU's.
// The snapshot series (N): its folder, how many so far, or why the last one stopped.
void draw_snapshot_controls(const SnapshotStatus& snapshots, ViewerRequests& requests) {
  if (ImGui::Button(snapshots.active ? "stop snapshots (N)" : "snapshots (N)")) requests.snapshots = true;
  if (!snapshots.line.empty()) {
    ImGui::SameLine();
    ImGui::TextWrapped("%s", printable(snapshots.line).c_str());
  }
}

void draw_record_controls(const RecordingStatus& recording, ViewerControls& controls, ViewerRequests& requests) {
  ImGui::SetNextItemWidth(260.0f);
  if (recording.active) ImGui::BeginDisabled();
  ImGui::InputText("##clip", &controls.clip_path);
  if (recording.active) ImGui::EndDisabled();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("PATH.mp4 (through ffmpeg) or a new or empty directory of PNGs");
  ImGui::SameLine();
  if (ImGui::Button(recording.active ? "stop recording (V)" : "record (V)")) requests.record = true;
  if (recording.active)
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "recording %s: %ld frames, %.1f s at %d fps",
                       printable(recording.path).c_str(), recording.frames,
                       static_cast<double>(recording.frames) / std::max(1, recording.fps), recording.fps);
}

void draw_run_controls(ViewerControls& controls, ViewerRequests& requests, bool sweeping,
                       Precision precision) {
  ImGui::Checkbox("pause (Space)", &controls.paused);
  ImGui::SameLine();
  if (ImGui::Button("step (S)")) requests.step_once = true;
  ImGui::SameLine();
  if (ImGui::Button("reset")) requests.reset = true;
  ImGui::SameLine();
  if (ImGui::Button("camera (R)")) requests.reset_camera = true;
  if (sweeping) ImGui::BeginDisabled();
  if (ImGui::Button("sweep layouts")) requests.sweep = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("runs AoS, SoA and float4 for 2 s each in %s and fills Compare",
                      std::string(to_string(precision)).c_str());
  ImGui::SameLine();
  if (ImGui::Button("sweep x precisions")) {
    requests.sweep = true;
    requests.sweep_precisions = true;
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "runs every layout in %s, then in the other precision, 2 s each, and returns;\n"
        "each precision switch says in a notice whether rounding changed values",
        std::string(to_string(precision)).c_str());
  if (sweeping) ImGui::EndDisabled();
  ImGui::SetNextItemWidth(260.0f);
  ImGui::InputText("##shot", &controls.screenshot_path);
  ImGui::SameLine();
  if (ImGui::Button("screenshot (F12)")) requests.screenshot = true;
  ImGui::TextDisabled("drag: rotate  right-drag: pan  wheel: zoom  H: hide panel");
}

}  // namespace

double shown_value(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", static_cast<double>(v));
  return std::strtod(text, nullptr);
}

void draw_controls_section(const ViewerModel& model, ViewerControls& controls, ViewerRequests& requests) {
  if (!ImGui::CollapsingHeader("Controls", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::PushItemWidth(200.0f);
  draw_simulation_controls(model, controls, requests);
  ImGui::PopItemWidth();
  draw_run_controls(controls, requests, model.sweep && model.sweep->active(),
                    model.simulation->backend().precision());
  draw_record_controls(model.recording, controls, requests);
  if (model.snapshots) draw_snapshot_controls(*model.snapshots, requests);
  if (!model.last_screenshot.empty())
    ImGui::TextDisabled("last screenshot: %s", printable(model.last_screenshot).c_str());
  if (!model.last_clip.empty()) ImGui::TextDisabled("last clip: %s", printable(model.last_clip).c_str());
}

}  // namespace coalesce
