// Owns the ImGui context and its OpenGL3 renderer backend for one render target (window or headless),
// shut down in the reverse order of set-up.
#pragma once

#include "render/render_target.h"

namespace coalesce {

class ImGuiSession {
 public:
  explicit ImGuiSession(RenderTarget& target);
  ~ImGuiSession();
  ImGuiSession(const ImGuiSession&) = delete;
  ImGuiSession& operator=(const ImGuiSession&) = delete;

  void new_frame(float delta_seconds);
  void render();  // ImGui::Render and the OpenGL3 draw, into the bound framebuffer

 private:
  RenderTarget& m_target;
};

}  // namespace coalesce
