// The viewer's window: GLFW with an OpenGL 4.3 core context, glad loaded, ImGui's GLFW backend.
#pragma once

#include <stdexcept>
#include <string>

#include "render/render_target.h"

struct GLFWwindow;

namespace coalesce {

// Thrown when no window can be opened (no display, no GL 4.3): the caller suggests --headless.
class WindowError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class GlfwWindow final : public RenderTarget {
 public:
  GlfwWindow(int width, int height, const std::string& title);
  ~GlfwWindow() override;
  GlfwWindow(const GlfwWindow&) = delete;
  GlfwWindow& operator=(const GlfwWindow&) = delete;

  bool should_close() const override;
  void poll_events() override;
  FramebufferSize framebuffer_size() const override;
  void bind_framebuffer() override;
  void present() override;
  void imgui_init() override;
  void imgui_new_frame(float delta_seconds) override;
  void imgui_shutdown() override;
  bool headless() const override { return false; }
  std::string description() const override;

 private:
  GLFWwindow* m_window = nullptr;
  bool m_imgui = false;
};

}  // namespace coalesce
