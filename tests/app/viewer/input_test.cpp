// Keyboard shortcuts and mouse camera control, driven through ImGui's input state in-process (no GL, no
// window): each layout's key (1/2/3), P precision, Space pause, S step, H panel, R camera reset, F12
// screenshot, drag, pan, wheel.
#include <gtest/gtest.h>

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app/viewer/viewer_input.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

// An ImGui context that can run frames without a renderer: the font atlas is built, never uploaded.
class ImGuiFrames {
 public:
  ImGuiFrames() {
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(1280.0f, 720.0f);
    io.DeltaTime = 1.0f / 60.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~ImGuiFrames() { ImGui::DestroyContext(); }

  // One frame with `key` held (pressed this frame if it was up in the last one).
  void frame(OrbitCamera& camera, ViewerControls& controls, ViewerRequests& requests, int key = -1,
             Precision precision = Precision::Fp32) {
    ImGuiIO& io = ImGui::GetIO();
    for (bool& down : io.KeysDown) down = false;
    if (key >= 0) io.KeysDown[key] = true;
    ImGui::NewFrame();
    handle_input(camera, controls, requests, precision);
    ImGui::EndFrame();
  }
};

TEST(Input, KeysMapToTheirActions) {
  ImGuiFrames frames;
  OrbitCamera camera;
  ViewerControls controls;
  for (const LayoutInfo& row : kLayoutTable) {  // the key of every layout (GLFW digit codes are ASCII)
    ViewerRequests requests;
    frames.frame(camera, controls, requests);  // key up first, so the next frame is a press
    frames.frame(camera, controls, requests, row.key);
    ASSERT_TRUE(requests.layout.has_value()) << row.key;
    EXPECT_EQ(*requests.layout, row.layout);
  }
  ViewerRequests requests;
  frames.frame(camera, controls, requests);
  const bool paused = controls.paused;
  frames.frame(camera, controls, requests, GLFW_KEY_SPACE);
  EXPECT_NE(controls.paused, paused);
  frames.frame(camera, controls, requests, GLFW_KEY_S);
  EXPECT_TRUE(requests.step_once);
  const bool visible = controls.panel_visible;
  frames.frame(camera, controls, requests, GLFW_KEY_H);
  EXPECT_NE(controls.panel_visible, visible);
  frames.frame(camera, controls, requests, GLFW_KEY_F12);
  EXPECT_TRUE(requests.screenshot);
  EXPECT_FALSE(requests.record);
  frames.frame(camera, controls, requests, GLFW_KEY_V);
  EXPECT_TRUE(requests.record) << "V starts or stops a clip";
  EXPECT_FALSE(requests.snapshots);
  frames.frame(camera, controls, requests, GLFW_KEY_N);
  EXPECT_TRUE(requests.snapshots) << "N starts or stops a snapshot series";
}

TEST(Input, PAsksForTheOtherPrecision) {
  ImGuiFrames frames;
  OrbitCamera camera;
  ViewerControls controls;
  for (Precision now : kAllPrecisions) {
    ViewerRequests requests;
    frames.frame(camera, controls, requests, -1, now);
    EXPECT_FALSE(requests.precision.has_value());
    frames.frame(camera, controls, requests, GLFW_KEY_P, now);
    ASSERT_TRUE(requests.precision.has_value()) << to_string(now);
    EXPECT_NE(*requests.precision, now) << "P switches to the other precision";
    ViewerRequests held;
    frames.frame(camera, controls, held, GLFW_KEY_P, now);
    EXPECT_FALSE(held.precision.has_value()) << "a held P does not repeat: one switch per press";
  }
}

TEST(Input, DragRotatesWheelZoomsAndRResets) {
  TestRng rng;
  ImGuiFrames frames;
  OrbitCamera camera(rng.uniform(0.5f, 5.0f));
  ViewerControls controls;
  ViewerRequests requests;
  const double yaw = camera.yaw();
  const float distance = camera.distance();
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2(700.0f, 400.0f);
  io.MouseDown[0] = true;
  frames.frame(camera, controls, requests);
  const float dx = rng.uniform(20.0f, 200.0f);
  io.MousePos = ImVec2(700.0f + dx, 400.0f);
  frames.frame(camera, controls, requests);
  EXPECT_NE(camera.yaw(), yaw) << "a left drag of " << dx << " px must rotate";
  io.MouseDown[0] = false;
  io.MouseWheel = 1.0f;
  frames.frame(camera, controls, requests);
  io.MouseWheel = 0.0f;
  EXPECT_LT(camera.distance(), distance) << "scrolling up must zoom in";
  frames.frame(camera, controls, requests);
  frames.frame(camera, controls, requests, GLFW_KEY_R);
  EXPECT_FLOAT_EQ(camera.yaw(), yaw);
  EXPECT_FLOAT_EQ(camera.distance(), distance);
}

}  // namespace
}  // namespace coalesce::testing
