// Keys: 1/2/3 layout, Space pause, S step, H panel, R camera, F12 screenshot. Mouse: orbit, pan, zoom.
#include "app/viewer_input.h"

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace coalesce {

void handle_input(OrbitCamera& camera, ViewerControls& controls, ViewerRequests& requests) {
  const ImGuiIO& io = ImGui::GetIO();
  // ImGui 1.86 with its GLFW backend indexes KeysDown by GLFW key codes.
  if (!io.WantCaptureKeyboard) {
    if (ImGui::IsKeyPressed(GLFW_KEY_1, false)) requests.layout = Layout::AoS;
    if (ImGui::IsKeyPressed(GLFW_KEY_2, false)) requests.layout = Layout::SoA;
    if (ImGui::IsKeyPressed(GLFW_KEY_3, false)) requests.layout = Layout::Float4;
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) controls.paused = !controls.paused;
    if (ImGui::IsKeyPressed(GLFW_KEY_S, true)) requests.step_once = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_H, false)) controls.panel_visible = !controls.panel_visible;
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) requests.reset_camera = true;
  }
  // F12 works even while a text field has focus: a screenshot never edits anything.
  if (ImGui::IsKeyPressed(GLFW_KEY_F12, false)) requests.screenshot = true;
  if (requests.reset_camera) camera.reset();

  if (io.WantCaptureMouse) return;
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) camera.rotate(io.MouseDelta.x, io.MouseDelta.y);
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Right))
    camera.pan(io.MouseDelta.x, io.MouseDelta.y, io.DisplaySize.y);
  if (io.MouseWheel != 0.0f) camera.zoom(io.MouseWheel);
}

}  // namespace coalesce
