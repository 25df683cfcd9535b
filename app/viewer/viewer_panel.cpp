// The panel window: frame numbers and notices on top, then the viewer and Lab tabs.
#include "app/viewer/viewer_panel.h"

#include <imgui.h>

#include "sim/printable.h"

namespace coalesce {
namespace {

void draw_frame_line(const ViewerModel& model, const ViewerControls& controls, const GlDriver& gl) {
  const FrameStats& f = *model.frames;
  ImGui::Text("%.1f FPS   frame %.2f ms (median %.2f)", f.fps(), f.frame_ms.value(), f.median_frame_ms());
  ImGui::Text("CPU: simulation %.2f  upload %.2f  render %.2f ms", f.simulation_ms.value(),
              f.upload_ms.value(), f.render_cpu_ms.value());
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "CPU wall time of each step. With the CUDA backend the kernels run asynchronously:\n"
        "their GPU times are in the kernel table, the draw's in 'GPU: draw'.");
  // Only the interop path leaves the pack kernel's GPU time out of the upload's CPU time.
  const InteropCost interop =
      interop_cost(f, model.stats->kernel(KernelKind::Pack), model.render_path == RenderPathMode::Interop);
  const bool splat = model.draw && model.draw->path() == DrawPath::Splat;
  // Name what runs: Mesa's llvmpipe draws on the CPU, and without interop frames are uploaded, not mapped.
  const std::string where = gl.is_software() ? gl.renderer.substr(0, gl.renderer.find(' ')) + " (CPU)" : "GPU";
  const char* transfer = model.render_path == RenderPathMode::Interop ? "interop" : "upload";
  if (f.render_gpu_ms.count() > 0 && splat)
    ImGui::Text("%s: draw %.2f ms (splat %.2f, tone map %.2f)  %s %.1f%%", where.c_str(), f.draw_gpu_ms(),
                f.splat_gpu_ms.value(), f.render_gpu_ms.value(), transfer, 100.0 * interop.share_of_frame);
  else if (f.render_gpu_ms.count() > 0)
    ImGui::Text("%s: draw %.2f ms (points+tone map)  %s %.1f%%", where.c_str(), f.draw_gpu_ms(), transfer,
                100.0 * interop.share_of_frame);
  else
    ImGui::Text("%s: draw -  %s %.1f%%", where.c_str(), transfer, 100.0 * interop.share_of_frame);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "draw (GPU): points: particle pass + tone map (GL timer queries); splat: clear + CUDA splat kernel "
        "+\n"
        "copy into the light texture (CUDA events) + tone map (GL timer queries); both read back frames "
        "later.\n"
        "interop or upload, %% of the frame: (upload CPU time [map + pack launch + unmap, or pack +\n"
        "glBufferSubData] + pack kernel GPU time) / frame = %.3f ms per frame",
        interop.milliseconds);
  if (model.draw) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("draw: %s", model.draw->reason().c_str());
    ImGui::PopTextWrapPos();
  }
  std::vector<float> history(f.history_frame_ms.begin(), f.history_frame_ms.end());
  if (!history.empty()) {
    ImGui::PlotLines("##frame", history.data(), static_cast<int>(history.size()), 0, "frame ms", 0.0f,
                     FLT_MAX, ImVec2(kPanelWidth - 30.0f, 26.0f));
  }
  const ViewerSimulation& sim = *model.simulation;
  ImGui::Text("step %llu   t = %.4g   N = %d", static_cast<unsigned long long>(sim.step_count()), sim.time(),
              sim.backend().particle_count());
  if (sim.start_size().particles > 0 && sim.start_size().particles == sim.backend().particle_count()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("N chosen at start for %s (--particles N sets it)", sim.start_size().reason.c_str());
    // The first frames' check: what the whole frame took and what limited N.
    if (!sim.start_size().frames.empty())
      ImGui::TextDisabled("first frames: %s", sim.start_size().frames.c_str());
    ImGui::PopTextWrapPos();
  }
  // Not a warning: the CPU backend is a supported way to run, so its notice is a quiet line.
  if (!sim.backend_notice().empty()) ImGui::TextDisabled("%s", sim.backend_notice().c_str());
  // A series writes files in the background of the run: its state stays in view at the top (key N).
  if (model.snapshots && model.snapshots->active) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(0.5f, 0.85f, 1.0f, 1.0f), "snapshots (N): %s",
                       printable(model.snapshots->line).c_str());
    ImGui::PopTextWrapPos();
  }
  if (model.drawn_particles > 0 && model.drawn_particles < sim.backend().particle_count())
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1.0f), "drawing %d of them (draw limit %d, same light)",
                       model.drawn_particles, controls.draw_limit);
}

void draw_notices(const ViewerModel& model, ViewerRequests& requests) {
  for (const Notice& n : model.notices) {
    const ImVec4 colour = n.error ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(1.0f, 0.85f, 0.4f, 1.0f);
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(colour, "%s", n.text.c_str());
    ImGui::PopTextWrapPos();
  }
  if (model.non_finite) {
    const NonFiniteReport& r = *model.non_finite;
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f),
                       "NaN/Inf in the state at step %llu (particle %lld; clean at step %llu): paused. "
                       "Try a smaller dt or a larger softening.",
                       static_cast<unsigned long long>(r.step), static_cast<long long>(r.particle),
                       static_cast<unsigned long long>(r.last_clean_step));
    ImGui::PopTextWrapPos();
    if (ImGui::Button("Reset the simulation")) requests.reset = true;
  }
  if (model.sweep && model.sweep->active())
    ImGui::TextColored(ImVec4(0.5f, 0.9f, 1.0f, 1.0f), "%s", model.sweep->status().c_str());
}

}  // namespace

void ViewerPanel::open_lab(const std::string& experiment) {
  m_lab.run_on_first_draw(experiment);
  m_select_lab_frames = 2;  // ImGui applies SetSelected on the frame after the tab bar first appears
}

void ViewerPanel::draw(const ViewerModel& model, ViewerControls& controls, ViewerRequests& requests) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(0.0f, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, io.DisplaySize.y), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.88f);
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse;
  if (ImGui::Begin("coalesce", nullptr, flags)) {
    if (!m_gl) m_gl = current_gl_driver();
    draw_frame_line(model, controls, *m_gl);
    draw_notices(model, requests);
    if (ImGui::BeginTabBar("tabs")) {
      if (ImGui::BeginTabItem("Viewer")) {
        draw_device_section(model);
        draw_kernel_section(model);
        draw_tree_section(model, requests);
        draw_hardware_section(model);
        draw_compare_section(model);
        draw_controls_section(model, controls, requests);
        ImGui::EndTabItem();
      }
      const ImGuiTabItemFlags lab_flags = m_select_lab_frames > 0 ? ImGuiTabItemFlags_SetSelected : 0;
      if (m_select_lab_frames > 0) --m_select_lab_frames;
      if (ImGui::BeginTabItem("Lab", nullptr, lab_flags)) {
        m_lab.draw();
        ImGui::EndTabItem();
      }
      ImGui::EndTabBar();
    }
  }
  ImGui::End();
}

}  // namespace coalesce
