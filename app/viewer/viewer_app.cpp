// The frame: input -> requests -> step -> pack into the render buffer -> draw -> panel -> screenshot.
#include "app/viewer/viewer_app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "app/output_paths.h"
#include "app/printable.h"
#include "app/viewer/viewer_report.h"
#include "render/gl_api.h"
#include "render/screenshot.h"
#include "render/sprite_scale.h"
#include "sim/errors.h"
#include "sim/output_file.h"

namespace coalesce {
namespace {
double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}
}  // namespace

ViewerApp::ViewerApp(const Options& options, RenderTarget& target, ViewerSimulation& simulation)
    : m_target(target),
      m_simulation(simulation),
      m_imgui(target),
      m_draw(options.draw),
      m_hardware(options.counters ? ViewerHardware::open(simulation.cuda_device(),
                                                          simulation.backend().device_info(), seconds())
                                  : ViewerHardware::off(simulation.backend().device_info(), seconds())) {
  m_controls.pack = options.pack ? *options.pack : m_simulation.backend().preferred_pack_variant();
  m_pack_follows_fastest = !options.pack;
  m_fastest_pack = m_controls.pack;
  m_controls.particles_input = m_simulation.backend().particle_count();
  if (!options.screenshot.empty()) m_controls.screenshot_path = options.screenshot;
  for (const std::string& notice : {m_simulation.backend_notice(), m_simulation.scene_notice()})
    if (!notice.empty()) m_base_notices.push_back(notice);
  m_model.simulation = &m_simulation;
  m_model.stats = &m_stats;
  m_model.frames = &m_frames;
  m_model.sweep = &m_sweep;
  m_model.hardware = &m_hardware;
  m_model.target = m_target.description();
  m_model.draw = &m_draw;
  // Unset: follow_draw_path (in rebuild_render_path) sets it once the path is known.
  m_draw_limit_follows_path = !options.draw_limit;
  m_controls.draw_limit = options.draw_limit ? std::max(0, *options.draw_limit) : 0;
  m_controls.draw_limit_input = m_controls.draw_limit > 0 ? m_controls.draw_limit : kDefaultDrawLimit;
  m_interop = options.no_interop ? InteropUse::Off : InteropUse::Allowed;
  rebuild_render_path();
  // --sweep K: all three layouts in Compare from the first frame, K frames each, for scripted screenshots.
  if (options.sweep_frames) {
    m_sweep = LayoutSweep(*options.sweep_frames);
    m_sweep_in_frames = true;
    m_requests.sweep = true;
  }
  if (!options.lab_tab.empty()) m_panel.open_lab(options.lab_tab);
}

ViewerApp::~ViewerApp() = default;

double ViewerApp::seconds() const {
  return ms_since(m_start) * 1e-3;
}
double ViewerApp::sweep_clock() const {
  return m_sweep_in_frames ? static_cast<double>(m_frames.frames) : seconds();
}

void ViewerApp::add_notice(const std::string& text, bool error) {
  std::fprintf(stderr, "coalesce: %s\n", printable(text).c_str());
  m_model.notices.push_back({text, error});
  if (m_model.notices.size() > 6) m_model.notices.erase(m_model.notices.begin());
}

void ViewerApp::rebuild_render_path() {
  m_path.reset();  // unregister before the buffer is reallocated
  m_path =
      std::make_unique<RenderPath>(m_simulation.backend(), m_interop, m_draw.interop_access(), m_renderer);
  m_model.render_path = m_path->mode();
  m_model.notices.clear();
  for (const std::string& notice : m_base_notices) m_model.notices.push_back({notice, false});
  if (!m_path->notice().empty()) add_notice(m_path->notice(), false);
  const std::string draw_notice = m_draw.on_render_path(*m_path);
  if (!draw_notice.empty()) add_notice(draw_notice, false);
  m_frames.render_gpu_ms.reset();  // the GPU times of another path or N would mislead
  m_frames.splat_gpu_ms.reset();
  frame_camera();
  follow_draw_path();
}

// The default draw limit follows the path: all particles with the splat, kDefaultDrawLimit with points.
void ViewerApp::follow_draw_path() {
  if (!m_draw_limit_follows_path) return;
  const int limit = m_draw.path() == DrawPath::Splat ? 0 : kDefaultDrawLimit;
  if (limit == m_controls.draw_limit) return;
  m_controls.draw_limit = limit;
  update_sprite_style();
}

// Frames the camera and the colour scale from the state: 90th percentiles of radius and speed.
void ViewerApp::frame_camera() {
  const std::vector<Particle> state = m_simulation.backend().download();
  const size_t stride = std::max<size_t>(1, state.size() / 20000);
  std::vector<float> radii, speeds;
  for (size_t i = 0; i < state.size(); i += stride) {
    const Particle& p = state[i];
    radii.push_back(std::sqrt(p.x * p.x + p.y * p.y + p.z * p.z));
    speeds.push_back(std::sqrt(p.vx * p.vx + p.vy * p.vy + p.vz * p.vz));
  }
  auto percentile = [](std::vector<float>& v, double q) {
    if (v.empty()) return 1.0f;
    auto it = v.begin() + static_cast<long>(q * static_cast<double>(v.size() - 1));
    std::nth_element(v.begin(), it, v.end());
    return std::isfinite(*it) && *it > 0 ? *it : 1.0f;
  };
  m_scene_radius = percentile(radii, 0.9);
  m_camera.set_scene_radius(m_scene_radius);
  m_style.max_speed = 1.5f * percentile(speeds, 0.9);
  update_sprite_style();
}

// Stride, sprite size and light for N and the draw limit; the simulation always steps all N.
void ViewerApp::update_sprite_style() {
  const int count = std::max(1, m_simulation.backend().particle_count());
  const double n = static_cast<double>(count);
  const int limit = m_controls.draw_limit;
  // The draw limit: every k-th particle with k times the light, for when the vertex stage rather than
  // the fragments bounds the frame (H100: ~2.4 ns per point). At most 128: the attribute stride.
  m_style.stride = limit > 0 && count > limit ? std::min(kMaxDrawStride, (count + limit - 1) / limit) : 1;
  const int drawn = ParticleRenderer::drawn_count(count, m_style.stride);
  m_model.drawn_particles = drawn;
  // Beyond kSpriteReferenceParticles sprites shrink as 1/sqrt(N) with the same light per particle, so
  // the particle pass shades a bounded number of fragments (one flat pixel each at 16M).
  const SpriteScale scale = sprite_scale(static_cast<double>(drawn));
  m_style.point_size = 0.012f * m_scene_radius * scale.size;
  m_style.max_pixels = std::max(8.0f, kMaxSpritePixels * scale.size);
  // Light per particle: ~1/sqrt(N) while sprites rarely overlap, falling faster beyond 131072 where
  // many particles share each pixel (the tone map then keeps dense cores from clipping).
  const double sparse = 1.0 * std::sqrt(32768.0 / std::min(n, 131072.0));
  m_style.intensity = static_cast<float>(n <= 131072.0 ? sparse : sparse * std::pow(131072.0 / n, 0.75)) *
                      scale.intensity * static_cast<float>(n / static_cast<double>(drawn));
}

void ViewerApp::apply_requests() {
  ViewerRequests r = std::exchange(m_requests, ViewerRequests{});
  if (r.sweep && !m_sweep.active()) m_sweep.start(m_simulation.backend().layout(), sweep_clock());
  if (const auto next = m_sweep.update(sweep_clock())) r.layout = next;
  if (r.layout && *r.layout != m_simulation.backend().layout()) {
    // The fastest pack variant is measured per layout: follow it unless the user picked one.
    const bool follow = m_pack_follows_fastest && m_controls.pack == m_fastest_pack;
    m_simulation.set_layout(*r.layout);
    if (follow) m_controls.pack = m_simulation.backend().preferred_pack_variant();
    m_fastest_pack = m_controls.pack;
    m_pack_follows_fastest = follow;
    m_stats.on_layout_change();
  }
  if (r.solver) {
    const std::string notice = m_simulation.set_solver(*r.solver);
    if (!notice.empty()) add_notice(notice, false);
    m_stats.reset_all();
    m_hardware.reset_layouts();
  }
  if (r.dt) m_simulation.params().dt = *r.dt;  // before a scene change, whose own values then win
  if (r.softening) m_simulation.params().softening = *r.softening;
  try {
    if (r.scene) m_simulation.load_scene(*r.scene);
    if (r.particles) m_simulation.reseed(*r.particles);
    if (r.reset) m_simulation.reset();
  } catch (const std::exception& e) {
    add_notice(std::string("could not apply the change: ") + e.what(), true);
  }
  if (r.draw_limit) {
    m_controls.draw_limit = std::max(0, *r.draw_limit);
    m_draw_limit_follows_path = false;  // the user's choice now, on either path
  }
  if (r.scene || r.particles) {
    m_stats.reset_all();
    m_hardware.reset_layouts();
    rebuild_render_path();
    m_controls.particles_input = m_simulation.backend().particle_count();
  } else if (r.draw_limit) {
    update_sprite_style();  // the camera stays where the user put it
  }
  if (r.reset) {
    m_model.non_finite.reset();
    m_last_clean_step = 0;
    m_controls.paused = false;
  }
  if (r.step_once) {
    m_controls.paused = true;
    simulate();
  }
  if (r.screenshot) m_requests.screenshot = true;  // taken after this frame is drawn
}

void ViewerApp::simulate() {
  m_simulation.advance();
}

void ViewerApp::check_state() {
  const int n = m_simulation.backend().particle_count();
  const bool every_frame = m_path->mode() != RenderPathMode::Interop && n <= (1 << 20);
  if (!every_frame && m_frames.frames % 30 != 0) return;
  if (const auto bad = m_path->find_non_finite(m_renderer)) {
    if (!m_model.non_finite) {
      m_model.non_finite = NonFiniteReport{m_simulation.step_count(), m_last_clean_step, *bad};
      std::fprintf(stderr, "coalesce: NaN/Inf in the state at step %llu (particle %lld): paused\n",
                   static_cast<unsigned long long>(m_simulation.step_count()), static_cast<long long>(*bad));
    }
    m_controls.paused = true;
  } else {
    m_last_clean_step = m_simulation.step_count();
  }
}

void ViewerApp::take_screenshot(const std::string& path, FramebufferSize size) {
  try {
    // Checked again here: the panel's path is typed during the run, and files may have changed since.
    const ScreenshotOutputs outputs = check_screenshot_outputs("screenshot", path);
    const std::string png = encode_png(read_framebuffer(size.width, size.height));
    if (png.empty()) throw RuntimeFailure("screenshot " + path + ": PNG encoding failed");
    write_output(outputs.png, {png});
    write_output(outputs.json, {screenshot_json(m_model, m_controls, size.width, size.height)});
    m_model.last_screenshot = path;
    std::printf("coalesce: wrote %s and %s\n", path.c_str(), outputs.json.shown.c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    m_screenshot_failed = true;
    add_notice(e.what(), true);
  }
}

}  // namespace coalesce
