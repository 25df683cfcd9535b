// ViewerApp::run: the frame loop itself, in the order of ImGui's GLFW + OpenGL3 example.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <thread>

#include <imgui.h>

#include "app/services/interrupt.h"
#include "app/viewer/viewer_app.h"
#include "app/viewer/viewer_input.h"
#include "render/gl_api.h"
#include "render/gl_check.h"
#include "sim/nvtx_range.h"

namespace coalesce {
namespace {
using Clock = std::chrono::steady_clock;
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

int ViewerApp::run(const ViewerRun& run) {
  long frame = 0;
  long skipped = 0;
  Clock::time_point last = Clock::now();
  while (!m_target.should_close() && !(run.interrupt && run.interrupt->requested())) {
    const Clock::time_point start = Clock::now();
    const NvtxRange frame_range("frame");  // docs/profiling.md
    m_target.poll_events();
    const FramebufferSize size = m_target.framebuffer_size();
    if (size.empty()) {
      // Minimised: nothing to draw into. Keep the loop alive without spinning; bounded so --frames ends.
      std::this_thread::sleep_for(std::chrono::milliseconds(16));
      if (run.frames > 0 && ++skipped > 600) break;
      continue;
    }
    const double wall_seconds = ms_between(last, start) * 1e-3;
    m_imgui.new_frame(static_cast<float>(wall_seconds));
    last = start;
    handle_input(m_camera, m_controls, m_requests, m_simulation.backend().precision());
    apply_requests();
    m_clips.start_due(size, m_inputs, clip_context());

    const Clock::time_point sim_start = Clock::now();
    if (!m_controls.paused) {
      const NvtxRange range("simulate");
      simulate();
    }
    const Clock::time_point upload_start = Clock::now();
    {
      const NvtxRange range("render buffer");  // map, pack, unmap (or the copy path)
      m_path->update(m_simulation.backend(), m_controls.pack, m_renderer);
    }
    const Clock::time_point render_start = Clock::now();
    check_state();
    const Layout layout = m_simulation.backend().layout();
    const Precision precision = m_simulation.backend().precision();
    std::vector<KernelTiming> timings = m_simulation.backend().poll_timings();
    follow_tree(timings);
    m_stats.add(timings, layout, precision);
    // The computed line first, then the samples whose intervals these frames fall in.
    const double now = seconds();
    const ForceMethod method = m_simulation.force_method();
    double scratch = 0.0;
    const double formula = combined_formula_bytes(timings, layout, precision, &scratch);
    m_hardware.add_frame({now, layout, combined_gigabytes_per_second(timings, layout, precision, method),
                          formula, 0.0, precision, scratch});
    m_hardware.poll();

    m_target.bind_framebuffer();
    // Particles get the area right of the panel, so the scene is centred in what the user sees.
    const float scale = ImGui::GetIO().DisplayFramebufferScale.x;  // panel width is in window units
    const int panel = static_cast<int>(kPanelWidth * (scale > 0.0f ? scale : 1.0f));
    const int left = m_controls.panel_visible ? std::min(panel, size.width / 2) : 0;
    const Viewport viewport{left, 0, size.width - left, size.height};
    if (m_draw.calibration_due()) {
      // --draw auto: both paths timed on this frame's particles, before the frame is drawn.
      SpriteStyle measured = m_style;
      measured.intensity *= m_controls.brightness;
      m_draw.calibrate(*m_path, m_simulation.backend(), m_renderer, m_camera, viewport, measured);
      follow_draw_path();
    }
    glViewport(0, 0, size.width, size.height);
    glClearColor(0.015f, 0.015f, 0.03f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    SpriteStyle style = m_style;
    style.intensity *= m_controls.brightness;
    // GPU time of the draw: GL timer queries, and CUDA events around the splat, read frames later.
    std::string draw_notice;
    {
      const NvtxRange range("draw");
      draw_notice = m_draw.draw(*m_path, m_simulation.backend(), m_renderer, m_camera, viewport, style, m_frames);
    }
    if (!draw_notice.empty()) {
      add_notice(draw_notice, false);
      follow_draw_path();
    }
    glViewport(0, 0, size.width, size.height);
    {
      const NvtxRange range("panel");
      if (m_controls.panel_visible) m_panel.draw(m_model, m_controls, m_requests);
      m_imgui.render();
    }
    check_gl("drawing the frame");  // the panel's GL calls included; before a screenshot reads it back
    if (m_start_check.measuring()) {
      // The start size's frame check: this frame's whole work, waited for, without vsync's wait.
      glFinish();
      m_simulation.backend().synchronize();
    }
    const Clock::time_point render_end = Clock::now();
    check_start_frame(ms_between(start, render_end), timings);

    m_clips.add_frame(size, ms_between(start, Clock::now()), timings, clip_context());
    const bool last_frame = run.frames > 0 && frame + 1 >= run.frames;
    const bool scripted = !run.screenshot.empty() && last_frame;
    if (scripted || m_requests.screenshot) {
      take_screenshot(scripted ? run.screenshot : m_controls.screenshot_path, size);
      m_requests.screenshot = false;
    }
    m_target.present();
    m_frames.add(ms_between(start, Clock::now()), ms_between(sim_start, upload_start),
                 ms_between(upload_start, render_start), ms_between(render_start, render_end));
    turn_camera(wall_seconds);  // after the frame, so a clip's first frame has the pose its JSON records
    ++frame;
    if (last_frame) break;
  }
  m_simulation.backend().synchronize();
  m_clips.end_run(clip_context());
  // The outputs the command line asked for fail the run; the panel's own are notices in a window.
  const bool frames_given = run.frames > 0;
  return m_clips.fails_run(frames_given) || (m_screenshot_failed && frames_given) ? 1 : 0;
}

}  // namespace coalesce
