// Headless rendering: EGL on the device platform (the NVIDIA GPU that is the CUDA device, or Mesa's
// software device), a surfaceless OpenGL 4.3 core context, and an FBO that frames are drawn into.
#pragma once

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "render/gl_objects.h"
#include "render/render_target.h"

namespace coalesce {

class HeadlessError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class HeadlessContext final : public RenderTarget {
 public:
  // `cuda_device` >= 0 picks the EGL device whose EGL_CUDA_DEVICE_NV matches; otherwise the first device.
  HeadlessContext(int width, int height, int cuda_device);
  ~HeadlessContext() override;
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  bool should_close() const override { return false; }
  void poll_events() override {}
  FramebufferSize framebuffer_size() const override { return {m_width, m_height}; }
  void bind_framebuffer() override;
  void present() override;
  void imgui_init() override {}
  void imgui_new_frame(float delta_seconds) override;
  void imgui_shutdown() override {}
  bool headless() const override { return true; }
  std::string description() const override;

 private:
  struct Egl;  // EGL handles (tears the context down), kept out of this header so it does not pull in EGL
  std::unique_ptr<Egl> m_egl;
  int m_width;
  int m_height;
  std::string m_device_label;
  // Declared after m_egl, so they are deleted first, while their context is still current.
  std::optional<GlFramebuffer> m_framebuffer;
  std::optional<GlRenderbuffer> m_colour;
  std::optional<GlRenderbuffer> m_depth;
};

}  // namespace coalesce
