// Keys: each layout's key from kLayoutTable (1/2/3), P precision (fp32 <-> fp64), Space pause, S step,
// H panel, R camera, V record a clip, N snapshot series, F12 screenshot.
// Mouse: orbit, pan, zoom.
#include "app/viewer/viewer_input.h"

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace coalesce {

// Table keys are digits; GLFW names them by their ASCII codes.
static_assert(GLFW_KEY_1 == '1' && GLFW_KEY_9 == '9', "GLFW digit key codes are ASCII");

namespace {
// The precision after `current` in kPrecisionTable, wrapping: fp32 <-> fp64.
Precision next_precision(Precision current) {
  return kAllPrecisions[(static_cast<std::size_t>(current) + 1) % kPrecisionCount];
}
}  // namespace

void handle_input(OrbitCamera& camera, ViewerControls& controls, ViewerRequests& requests,
                  Precision precision) {
  const ImGuiIO& io = ImGui::GetIO();
  // ImGui 1.86 with its GLFW backend indexes KeysDown by GLFW key codes.
  if (!io.WantCaptureKeyboard) {
    for (const LayoutInfo& row : kLayoutTable)
      if (ImGui::IsKeyPressed(row.key, false)) requests.layout = row.layout;
    if (ImGui::IsKeyPressed(GLFW_KEY_P, false)) requests.precision = next_precision(precision);
    if (ImGui::IsKeyPressed(GLFW_KEY_SPACE, false)) controls.paused = !controls.paused;
    if (ImGui::IsKeyPressed(GLFW_KEY_S, true)) requests.step_once = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_H, false)) controls.panel_visible = !controls.panel_visible;
    if (ImGui::IsKeyPressed(GLFW_KEY_R, false)) requests.reset_camera = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_V, false)) requests.record = true;
    if (ImGui::IsKeyPressed(GLFW_KEY_N, false)) requests.snapshots = true;
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
