// The viewer's frame loop: wires the simulation, the render path, the renderer, the panel and the
// screenshot together, one small part per call.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/services/clip_output.h"
#include "app/services/options.h"
#include "app/services/run_files.h"
#include "app/viewer/viewer_clips.h"
#include "app/viewer/viewer_draw.h"
#include "app/viewer/viewer_imgui.h"
#include "app/viewer/viewer_model.h"
#include "app/viewer/viewer_panel.h"
#include "app/viewer/viewer_snapshots.h"
#include "app/viewer/viewer_start_check.h"
#include "render/orbit_camera.h"
#include "render/particle_renderer.h"
#include "render/render_target.h"

namespace coalesce {

class StopSignals;

struct ViewerRun {
  int frames = 0;                             // 0: until the window closes
  const StopSignals* interrupt = nullptr;  // Ctrl-C, SIGTERM, SIGHUP close the viewer as its close button does
  std::string screenshot;  // taken on the last frame, so it needs frames > 0 (as --screenshot needs --frames)
};

class ViewerApp {
 public:
  ViewerApp(const Options& options, RenderTarget& target, ViewerSimulation& simulation);
  ~ViewerApp();
  int run(const ViewerRun& run);  // the exit code: 1 if a requested screenshot or clip could not be written
  // Ends the snapshot series, if one runs: the line to print ("" when none ran).
  std::string finish_snapshots() { return m_snapshots.finish(); }

 private:
  double seconds() const;
  double sweep_clock() const;
  void rebuild_render_path();
  void frame_camera();
  void update_sprite_style();
  void follow_draw_path();
  void follow_converted_state(bool follow_pack);
  void apply_requests();
  void simulate();
  void check_state();
  // The tree's report of the frame's kick and, when due, the live error check (tree runs only).
  void follow_tree(std::vector<KernelTiming>& timings);
  void take_screenshot(const std::string& path, FramebufferSize size);
  ClipContext clip_context();
  void turn_camera(double wall_seconds);
  // The start size's frame check (viewer_start_check.h): after a measured frame, asks for a lower N when
  // the frame is over its budget, and says what limited N once settled.
  void check_start_frame(double work_ms, const std::vector<KernelTiming>& timings);
  void add_notice(const std::string& text, bool error);

  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
  RenderTarget& m_target;
  ViewerSimulation& m_simulation;
  ImGuiSession m_imgui;
  ParticleRenderer m_renderer;
  ViewerDraw m_draw;  // before m_path: the render buffer's interop access depends on the draw choice
  std::unique_ptr<RenderPath> m_path;
  OrbitCamera m_camera;
  SpriteStyle m_style;
  ViewerPanel m_panel;
  ViewerStats m_stats;
  ViewerHardware m_hardware;  // after m_start: its clock offset is read from the viewer's clock
  FrameStats m_frames;
  LayoutSweep m_sweep;
  ViewerControls m_controls;
  ViewerRequests m_requests;
  ViewerModel m_model;
  std::vector<std::string>
      m_base_notices;  // the backend's (CPU fallback) and the scene's, kept across rebuilds
  std::uint64_t m_last_clean_step = 0;
  bool m_screenshot_failed = false;
  std::vector<RunInput> m_inputs;  // what this run reads: outputs named in the panel are checked against it
  ViewerClips m_clips;
  ViewerSnapshots m_snapshots;
  float m_orbit_degrees_per_second = 0.0f;
  bool m_headless = false;
  bool m_draw_limit_follows_path = true;  // no --draw-limit and none set in the panel yet
  bool m_pack_follows_fastest = true;  // no --pack and no choice in the panel yet
  PackVariant m_fastest_pack = PackVariant::Vector;
  float m_scene_radius = 1.0f;  // 90th percentile of |position| when the camera was last framed
  static constexpr int kMaxDrawStride = 128;
  bool m_sweep_in_frames = false;              // --sweep K: a scripted sweep, K frames per step
  InteropUse m_interop = InteropUse::Allowed;  // --no-interop: Off
  StartFrameCheck m_start_check;               // active when the viewer chose N itself
  TreeErrorCheck m_tree_check;                 // the tree's live error, about once a second
};

}  // namespace coalesce
