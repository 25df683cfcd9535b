// Where frames go: a GLFW window or a headless EGL framebuffer. The frame loop only sees this interface.
#pragma once

#include <string>

namespace coalesce {

struct FramebufferSize {
  int width = 0;
  int height = 0;
  bool empty() const { return width <= 0 || height <= 0; }
};

class RenderTarget {
 public:
  virtual ~RenderTarget() = default;

  virtual bool should_close() const = 0;
  virtual void poll_events() = 0;
  // 0 x 0 while a window is minimised: the caller skips drawing that frame.
  virtual FramebufferSize framebuffer_size() const = 0;
  // Binds the framebuffer that frames are drawn into (and read back from for screenshots).
  virtual void bind_framebuffer() = 0;
  virtual void present() = 0;

  // ImGui's platform side: the GLFW backend, or display size and delta time set by hand.
  virtual void imgui_init() = 0;
  virtual void imgui_new_frame(float delta_seconds) = 0;
  virtual void imgui_shutdown() = 0;

  virtual bool headless() const = 0;
  // What the context runs on, for the panel and the screenshot JSON.
  virtual std::string description() const = 0;
};

}  // namespace coalesce
