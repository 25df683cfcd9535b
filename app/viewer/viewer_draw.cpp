// The draw's two paths, --draw auto's start-up measurement, and the fall back to points when the splat
// cannot run.
#include "app/viewer/viewer_draw.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "render/gl_api.h"
#include "render/gl_objects.h"
#include "render/splat_renderer.h"

namespace coalesce {
namespace {

constexpr int kCalibrationDraws = 5;  // timed draws per path, after one untimed warm-up

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// GPU time of the GL commands `issue` makes, waiting for the result: start-up only.
template <typename Issue>
double gl_milliseconds(Issue&& issue) {
  const GlQuery query;
  glBeginQuery(GL_TIME_ELAPSED, query.id());
  issue();
  glEndQuery(GL_TIME_ELAPSED);
  GLuint64 nanoseconds = 0;
  glGetQueryObjectui64v(query.id(), GL_QUERY_RESULT, &nanoseconds);
  return static_cast<double>(nanoseconds) * 1e-6;
}

std::string no_splat_because(const RenderPath& path) {
  return path.mode() == RenderPathMode::HostUpload
             ? "the CUDA splat needs the CUDA backend"
             : "the CUDA splat needs CUDA-GL interop, which this run does not have";
}

}  // namespace

const char* to_string(DrawPath path) {
  return path == DrawPath::Splat ? "splat" : "points";
}

const char* to_string(DrawChoice choice) {
  switch (choice) {
    case DrawChoice::Auto:
      return "auto";
    case DrawChoice::Points:
      return "points";
    case DrawChoice::Splat:
      return "splat";
  }
  return "?";
}

ViewerDraw::ViewerDraw(DrawChoice choice) : m_choice(choice) {}
ViewerDraw::~ViewerDraw() = default;

InteropAccess ViewerDraw::interop_access() const {
  return m_choice == DrawChoice::Points ? InteropAccess::WriteDiscard : InteropAccess::ReadWrite;
}

std::string ViewerDraw::on_render_path(const RenderPath& path) {
  m_calibrate = false;
  m_calibration.reset();
  m_path = DrawPath::Points;
  if (m_choice == DrawChoice::Points) {
    m_reason = "points (--draw points)";
    return "";
  }
  std::string why;
  if (!path.interop()) {
    why = no_splat_because(path);
  } else if (!m_splat) {
    try {
      m_splat = std::make_unique<SplatRenderer>();
    } catch (const InteropError& e) {
      why = std::string("the CUDA splat is unavailable: ") + e.what();
    }
  }
  if (!why.empty()) {
    m_reason = std::string("points (") + to_string(m_choice) + ": " + why + ")";
    return m_choice == DrawChoice::Splat ? "--draw splat: " + why + "; drawing points" : "";
  }
  m_path = DrawPath::Splat;
  m_reason = m_choice == DrawChoice::Splat ? "splat (--draw splat)" : "splat (auto: not measured yet)";
  m_calibrate = m_choice == DrawChoice::Auto;
  return "";
}

void ViewerDraw::splat(const RenderPath& path, Backend& backend, const OrbitCamera& camera,
                       const Viewport& viewport, const SpriteStyle& style) {
  CUstream_st* stream = native_stream_of(backend);
  const InteropBuffer::Mapping mapping = path.interop()->map(stream);
  m_splat->splat(mapping.data(), backend.particle_count(), camera, viewport, style, stream);
}

void ViewerDraw::calibrate(const RenderPath& path, Backend& backend, ParticleRenderer& renderer,
                           const OrbitCamera& camera, const Viewport& viewport, const SpriteStyle& style) {
  m_calibrate = false;
  std::vector<double> points, splats;
  try {
    for (int i = 0; i <= kCalibrationDraws; ++i) {
      const double p = gl_milliseconds([&] { renderer.draw(camera, viewport, style); });
      splat(path, backend, camera, viewport, style);
      const double cuda = m_splat->wait_ms();
      const double tone_map =
          gl_milliseconds([&] { renderer.draw_light(m_splat->light_texture(), viewport, style); });
      if (i == 0) continue;  // the warm-up: first touches of fresh buffers run slow
      points.push_back(p);
      splats.push_back(cuda + tone_map);
    }
  } catch (const InteropError& e) {
    m_splat.reset();
    m_path = DrawPath::Points;
    m_reason = std::string("points (auto: the CUDA splat failed: ") + e.what() + ")";
    std::printf("coalesce: draw: %s\n", m_reason.c_str());
    return;
  }
  m_calibration = DrawCalibration{median(points), median(splats)};
  m_path = m_calibration->splat_ms <= m_calibration->points_ms ? DrawPath::Splat : DrawPath::Points;
  char text[160];
  std::snprintf(text, sizeof text,
                "%s (auto: GPU time per frame, splat %.2f ms vs points %.2f ms, measured at start)",
                to_string(m_path), m_calibration->splat_ms, m_calibration->points_ms);
  m_reason = text;
  std::printf("coalesce: draw: %s\n", m_reason.c_str());
  std::fflush(stdout);
}

std::string ViewerDraw::draw(const RenderPath& path, Backend& backend, ParticleRenderer& renderer,
                             const OrbitCamera& camera, const Viewport& viewport, const SpriteStyle& style,
                             FrameStats& frames) {
  std::string notice;
  if (m_path == DrawPath::Splat) {
    try {
      splat(path, backend, camera, viewport, style);
    } catch (const InteropError& e) {
      m_splat.reset();
      m_path = DrawPath::Points;
      m_reason = std::string("points (the CUDA splat failed: ") + e.what() + ")";
      notice = "CUDA splat unavailable (" + std::string(e.what()) + "): drawing points";
    }
  }
  // GPU time of GL's part: the particle pass + tone map, or the tone map alone after the splat.
  m_timer.begin();
  if (m_path == DrawPath::Splat)
    renderer.draw_light(m_splat->light_texture(), viewport, style);
  else
    renderer.draw(camera, viewport, style);
  m_timer.end();
  if (const auto ms = m_timer.poll()) frames.add_render_gpu(*ms);
  if (m_splat)
    if (const auto ms = m_splat->poll_ms()) frames.add_splat_gpu(*ms);
  return notice;
}

}  // namespace coalesce
