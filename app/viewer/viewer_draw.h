// Which way the particles are drawn (GL point sprites or the CUDA splat), the choice's reason, the start-up
// measurement that --draw auto decides by, and the timed draw itself.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/services/options.h"
#include "app/viewer/viewer_render_path.h"
#include "app/viewer/viewer_stats.h"
#include "render/gpu_timer.h"
#include "render/orbit_camera.h"
#include "render/particle_renderer.h"

namespace coalesce {

class SplatRenderer;

enum class DrawPath { Points, Splat };
const char* to_string(DrawPath path);
const char* to_string(DrawChoice choice);

// GPU ms of one draw of each path at start (--draw auto), the median of a few.
struct DrawCalibration {
  double points_ms = 0;
  double splat_ms = 0;
};

class ViewerDraw {
 public:
  explicit ViewerDraw(DrawChoice choice);
  ~ViewerDraw();
  ViewerDraw(const ViewerDraw&) = delete;
  ViewerDraw& operator=(const ViewerDraw&) = delete;

  // InteropAccess the render buffer needs: the splat reads it back after the pack.
  InteropAccess interop_access() const;
  // After the render path is (re)built: whether the splat can run on it. Returns a notice when the splat
  // was asked for and cannot run ("" otherwise); --draw auto then measures both on its next draw.
  std::string on_render_path(const RenderPath& path);
  bool calibration_due() const { return m_calibrate; }
  // --draw auto: draws each path a few times (waiting for each GPU time), picks the faster, prints why.
  void calibrate(const RenderPath& path, Backend& backend, ParticleRenderer& renderer,
                 const OrbitCamera& camera, const Viewport& viewport, const SpriteStyle& style);
  // One frame's particles into viewport of the bound framebuffer; GPU times go into `frames`. A splat
  // failure at run time (registration) falls back to points and returns its notice, else "".
  std::string draw(const RenderPath& path, Backend& backend, ParticleRenderer& renderer,
                   const OrbitCamera& camera, const Viewport& viewport, const SpriteStyle& style,
                   FrameStats& frames);

  DrawPath path() const { return m_path; }
  DrawChoice choice() const { return m_choice; }
  const std::string& reason() const { return m_reason; }
  const std::optional<DrawCalibration>& calibration() const { return m_calibration; }

 private:
  void splat(const RenderPath& path, Backend& backend, const OrbitCamera& camera, const Viewport& viewport,
             const SpriteStyle& style);

  DrawChoice m_choice;
  DrawPath m_path = DrawPath::Points;
  std::string m_reason;
  std::unique_ptr<SplatRenderer> m_splat;  // null where the splat cannot run
  std::optional<DrawCalibration> m_calibration;
  bool m_calibrate = false;
  GpuTimer m_timer;  // GL's part of the draw
};

}  // namespace coalesce
