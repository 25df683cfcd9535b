// The frame: input -> requests -> step -> pack into the render buffer -> draw -> panel -> screenshot.
#include "app/viewer/viewer_app.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>

#include <imgui.h>

#include "app/services/clip_output.h"
#include "app/services/interrupt.h"
#include "app/services/output_paths.h"
#include "app/services/report_schemas.h"
#include "app/viewer/viewer_report.h"
#include "render/gl_api.h"
#include "render/screenshot.h"
#include "render/sprite_scale.h"
#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/printable.h"

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
                                  : ViewerHardware::off(simulation.backend().device_info(), seconds())),
      m_snapshots(options) {
  m_controls.pack = options.pack ? *options.pack : m_simulation.backend().preferred_pack_variant();
  m_pack_follows_fastest = !options.pack;
  m_fastest_pack = m_controls.pack;
  m_controls.particles_input = m_simulation.backend().particle_count();
  if (!options.screenshot.empty()) m_controls.screenshot_path = options.screenshot;
  // The backend's notice is the panel's quiet line (viewer_panel.cpp), not a warning.
  if (!m_simulation.scene_notice().empty()) m_base_notices.push_back(m_simulation.scene_notice());
  if (!m_simulation.load_notice().empty()) m_base_notices.push_back(m_simulation.load_notice());
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
  if (m_simulation.start_size().particles > 0)
    m_start_check = StartFrameCheck(start_size_rule(m_simulation.scene(), m_simulation.is_cuda()));
  rebuild_render_path();
  // --sweep K: all three layouts in Compare from the first frame, K frames each, for scripted screenshots;
  // with --sweep-precisions, all three in every precision.
  if (options.sweep_frames) {
    m_sweep = LayoutSweep(*options.sweep_frames);
    m_sweep_in_frames = true;
    m_requests.sweep = true;
    m_requests.sweep_precisions = options.sweep_precisions;
  }
  if (!options.lab_tab.empty()) m_panel.open_lab(options.lab_tab);
  if (options.camera) {
    const CameraPose& c = *options.camera;
    m_camera.set_pose({c.yaw_degrees, c.pitch_degrees, c.distance, glm::vec3(c.target[0], c.target[1], c.target[2])});
  }
  m_orbit_degrees_per_second = options.orbit_degrees_per_second;
  m_headless = options.headless;
  m_controls.brightness = options.brightness;
  m_controls.panel_visible = !options.panel_hidden;
  m_model.camera = &m_camera;
  m_model.orbit_degrees_per_second = m_orbit_degrees_per_second;
  m_clips = ViewerClips(options);
  m_model.snapshots = &m_snapshots.status();
  if (options.snapshot_every) m_snapshots.toggle(m_simulation);  // the series runs from the first frame
  m_inputs = run_inputs(options);
  m_controls.clip_path = !options.record.empty()            ? options.record
                         : find_program("ffmpeg").empty() ? "coalesce-clip"
                                                           : "coalesce-clip.mp4";
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

void ViewerApp::check_start_frame(double work_ms, const std::vector<KernelTiming>& timings) {
  const bool was_settled = m_start_check.settled();
  // What the frame spends beside the step, on this run's path.
  const char* rest = m_path->mode() == RenderPathMode::Interop ? "the draw and the panel"
                     : m_path->mode() == RenderPathMode::Copy  ? "the draw, the panel and the copy path"
                                                               : "the draw, the panel and the upload";
  const int n = m_simulation.backend().particle_count();
  const std::optional<int> next = m_start_check.add_frame(n, work_ms, timings, rest);
  if (next) m_requests.particles = *next;  // rebuilt next frame, as the panel's N is
  if (was_settled || !m_start_check.settled()) return;
  const int settled_n = next.value_or(n);
  m_simulation.settle_start_size(settled_n, m_start_check.settled_reason());
  std::printf("coalesce: N = %d after the first frames: %s; --particles N sets it\n", settled_n,
              m_start_check.settled_reason().c_str());
  std::fflush(stdout);
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

// After a layout or precision switch: the fastest pack variant is measured per layout (and precision), so
// follow it unless the user picked one; the live numbers start afresh, Compare keeps its rows.
void ViewerApp::follow_converted_state(bool follow_pack) {
  if (follow_pack) m_controls.pack = m_simulation.backend().preferred_pack_variant();
  m_fastest_pack = m_controls.pack;
  m_pack_follows_fastest = follow_pack;
  m_stats.restart_live();
}

void ViewerApp::apply_requests() {
  ViewerRequests r = std::exchange(m_requests, ViewerRequests{});
  const Backend& backend = m_simulation.backend();
  if (r.sweep && !m_sweep.active())
    m_sweep.start(backend.layout(), backend.precision(), sweep_clock(), r.sweep_precisions);
  if (const auto next = m_sweep.update(sweep_clock())) {
    r.layout = next->layout;
    r.precision = next->precision;
  }
  const bool follow_pack = m_pack_follows_fastest && m_controls.pack == m_fastest_pack;
  if (r.precision && *r.precision != backend.precision()) {
    // Converted in place, never re-generated: the notice says whether every value was kept.
    const PrecisionChange change = m_simulation.set_precision(*r.precision);
    add_notice(change.notice, change.refused);
    if (change.refused)
      m_sweep.skip(*r.precision);  // the run stays in its precision; a sweep goes on without that one
    else
      follow_converted_state(follow_pack);
  }
  if (r.layout && *r.layout != backend.layout()) {
    m_simulation.set_layout(*r.layout);
    follow_converted_state(follow_pack);
  }
  if (r.solver) {
    try {
      const std::string notice = m_simulation.set_solver(*r.solver);
      if (!notice.empty()) add_notice(notice, false);
      m_stats.reset_all();
      m_hardware.reset_layouts();
    } catch (const std::exception& e) {  // auto's measurement failed: the solver stays as it was
      add_notice(std::string("could not change the solver: ") + e.what(), true);
    }
  }
  if (r.tree) {
    try {
      m_simulation.set_tree_settings(*r.tree);
      m_stats.restart_live();  // the walk's time and pulls are another tree's now
    } catch (const std::exception& e) {
      add_notice(std::string("could not change the tree: ") + e.what(), true);
    }
  }
  // Another tree, state or method: the last check's error is no longer the run's.
  if (r.tree || r.solver || r.precision || r.scene || r.particles || r.reset) {
    m_tree_check.forget();
    m_model.tree_error.reset();
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
  if (r.record) m_clips.toggle(m_controls.clip_path, clip_context());
  if (r.snapshots) m_snapshots.toggle(m_simulation);
}

void ViewerApp::follow_tree(std::vector<KernelTiming>& timings) {
  Backend& backend = m_simulation.backend();
  if (family_of(m_simulation.force_method()) != ForceMethod::Tree) {
    m_model.tree.reset();
    m_model.tree_error.reset();
    return;
  }
  // Waits for the frame's kick. None after a live check until the next kick (paused): the last one stands.
  if (std::optional<TreeReport> report = backend.tree_report()) m_model.tree = std::move(report);
  if (!m_model.tree) return;
  // A GPU kick's count is known only once its walk is done (kernels/gpu_solvers.cpp): the frame's one kick.
  const double counted = m_model.tree->counts.particle_particle + m_model.tree->counts.particle_node;
  for (KernelTiming& t : timings)
    if (t.kernel == KernelKind::Forces && t.interactions == 0) t.interactions = counted;
  // Not while the start size measures frames: the check would be counted as the frame's.
  if (m_start_check.measuring()) return;
  if (m_tree_check.update(backend, m_simulation.scene().params, m_simulation.step_count(), seconds()))
    m_model.tree_error = m_tree_check.last();
}

void ViewerApp::simulate() {
  m_simulation.advance();
  m_snapshots.after_step(m_simulation);
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

ClipContext ViewerApp::clip_context() {
  return {m_model, m_controls, [this](const std::string& error) { add_notice(error, true); }};
}

// --orbit: by a frame of video while a clip records, and in headless runs, so clips and scripted
// screenshots turn the same whatever the frame rate; by the wall clock in a window.
void ViewerApp::turn_camera(double wall_seconds) {
  // A clip waiting for its first frame holds the camera there, so the clip starts at the --camera pose.
  if (m_orbit_degrees_per_second == 0.0f || m_clips.command_line_clip_waiting()) return;
  const bool video_time = m_clips.recording() || m_headless;
  const double seconds = video_time ? 1.0 / m_clips.fps() : wall_seconds;
  m_camera.turn(m_orbit_degrees_per_second * seconds);
}

void ViewerApp::take_screenshot(const std::string& path, FramebufferSize size) {
  try {
    // Checked again here: the panel's path is typed during the run, and files may have changed since.
    const ScreenshotOutputs outputs = check_screenshot_outputs("screenshot", path);
    check_run_files({outputs.png, outputs.json}, {}, m_inputs);
    check_sidecar_replaceable(outputs.json, kScreenshotSchemaPrefix);
    const std::string png = encode_png(read_framebuffer(size.width, size.height));
    if (png.empty()) throw RuntimeFailure("screenshot " + path + ": PNG encoding failed");
    plan_output(outputs.png);  // the panel's path is new to the exit ledger; --screenshot's is known
    plan_output(outputs.json);
    // A PNG beside a JSON of another shot would mislead --camera-from: both are replaced, or neither.
    write_outputs_together(
        {{outputs.png, {png}}, {outputs.json, {screenshot_json(m_model, m_controls, size.width, size.height, outputs.json.target)}}});
    m_model.last_screenshot = path;
    std::printf("coalesce: wrote %s and %s\n", printable(path).c_str(), printable(outputs.json.shown).c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    m_screenshot_failed = true;
    add_notice(e.what(), true);
  }
}

}  // namespace coalesce
