// The panel window: frame numbers and notices on top, then the viewer and Lab tabs.
#include "app/viewer_panel.h"

#include <imgui.h>

namespace coalesce {
namespace {

void draw_frame_line(const ViewerModel& model) {
  const FrameStats& f = *model.frames;
  ImGui::Text("%.1f FPS   frame %.2f ms", f.fps(), f.frame_ms.value());
  ImGui::Text("simulation %.2f ms   upload %.2f ms   render %.2f ms", f.simulation_ms.value(),
              f.upload_ms.value(), f.render_ms.value());
  std::vector<float> history(f.history_frame_ms.begin(), f.history_frame_ms.end());
  if (!history.empty()) {
    ImGui::PlotLines("##frame", history.data(), static_cast<int>(history.size()), 0, "frame ms", 0.0f,
                     FLT_MAX, ImVec2(kPanelWidth - 30.0f, 26.0f));
  }
  const ViewerSimulation& sim = *model.simulation;
  ImGui::Text("step %llu   t = %.4g   N = %d", static_cast<unsigned long long>(sim.step_count()), sim.time(),
              sim.backend().particle_count());
}

void draw_notices(ViewerModel& model, ViewerRequests& requests) {
  for (const Notice& n : model.notices) {
    const ImVec4 colour = n.error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(1.0f, 0.85f, 0.4f, 1.0f);
    ImGui::PushTextWrapPos(kPanelWidth - 10.0f);
    ImGui::TextColored(colour, "%s", n.text.c_str());
    ImGui::PopTextWrapPos();
  }
  if (model.non_finite) {
    const NonFiniteReport& r = *model.non_finite;
    ImGui::PushTextWrapPos(kPanelWidth - 10.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f),
                       "NaN/Inf in the state at step %llu (particle %lld; clean at step %llu): paused. "
                       "Try a smaller dt or a larger softening.",
                       static_cast<unsigned long long>(r.step), static_cast<long long>(r.particle),
                       static_cast<unsigned long long>(r.last_clean_step));
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Reset the simulation")) requests.reset = true;
  }
  if (model.sweep && model.sweep->active())
    ImGui::TextColored(ImVec4(0.5f, 0.9f, 1.0f, 1.0f), "%s", model.sweep->status().c_str());
}

}  // namespace

void ViewerPanel::draw(ViewerModel& model, ViewerControls& controls, ViewerRequests& requests) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, io.DisplaySize.y), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.88f);
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;
  if (ImGui::Begin("coalesce", nullptr, flags)) {
    draw_frame_line(model);
    draw_notices(model, requests);
    if (ImGui::BeginTabBar("tabs")) {
      if (ImGui::BeginTabItem("Viewer")) {
        draw_device_section(model);
        draw_kernel_section(model);
        draw_compare_section(model);
        draw_controls_section(model, controls, requests);
        ImGui::EndTabItem();
      }
      if (ImGui::BeginTabItem("Lab")) {
        m_lab.draw();
        ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    }
  }
  ImGui::End();
}

}  // namespace coalesce
