// ImGui set-up: no imgui.ini (the panel is placed in code), dark style, GLSL 430 for the OpenGL3 backend.
#include "app/viewer/viewer_imgui.h"

#include <imgui.h>
#include <backends/imgui_impl_opengl3.h>

namespace coalesce {

ImGuiSession::ImGuiSession(RenderTarget& target) : m_target(target) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 0.0f;
  style.FrameRounding = 3.0f;
  // Compact spacing: the whole panel, controls included, fits a 900-pixel-high screen.
  style.ItemSpacing = ImVec2(6.0f, 3.0f);
  style.FramePadding = ImVec2(4.0f, 2.0f);
  m_target.imgui_init();
  ImGui_ImplOpenGL3_Init("#version 430");
}

ImGuiSession::~ImGuiSession() {
  ImGui_ImplOpenGL3_Shutdown();
  m_target.imgui_shutdown();
  ImGui::DestroyContext();
}

void ImGuiSession::new_frame(float delta_seconds) {
  // The OpenGL3 backend first: its first call builds the font atlas.
  ImGui_ImplOpenGL3_NewFrame();
  m_target.imgui_new_frame(delta_seconds);
  ImGui::NewFrame();
}

void ImGuiSession::render() {
  ImGui::Render();
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

}  // namespace coalesce
