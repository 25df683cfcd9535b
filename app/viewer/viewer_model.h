// The state the panel draws and the screenshot JSON records, plus the requests the panel and the keys
// make; the frame loop applies the requests between frames.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/services/tree_error_check.h"
#include "app/viewer/viewer_draw.h"
#include "app/viewer/viewer_hardware.h"
#include "app/viewer/viewer_render_path.h"
#include "app/viewer/viewer_simulation.h"
#include "app/viewer/viewer_snapshots.h"
#include "app/viewer/viewer_stats.h"
#include "app/viewer/viewer_sweep.h"
#include "render/orbit_camera.h"

namespace coalesce {

struct Notice {
  std::string text;
  bool error = false;
};

struct NonFiniteReport {
  std::uint64_t step = 0;  // the first step after which it was seen
  std::uint64_t last_clean_step = 0;
  std::int64_t particle = 0;
};

// Requests from the panel and the keyboard, consumed once by the frame loop.
struct ViewerRequests {
  std::optional<Layout> layout;
  std::optional<Precision> precision;
  std::optional<ForceMethod> solver;
  std::optional<std::string> scene;
  std::optional<int> particles;
  std::optional<int> draw_limit;  // 0: draw every particle
  std::optional<double> dt;       // the panel's sliders, inside sim/limits.h's ranges
  std::optional<double> softening;
  std::optional<TreeSettings> tree;  // the tree's theta (inside kThetaRange) and memory orders
  bool step_once = false;
  bool screenshot = false;
  bool sweep = false;
  bool sweep_precisions = false;  // with sweep: every layout in every precision, not only the current one
  bool reset = false;
  bool reset_camera = false;
  bool record = false;  // start or stop a clip (V, the record button)
  bool snapshots = false;  // start or stop a snapshot series (N, the snapshots button)
};

// What the panel says about a clip being recorded.
struct RecordingStatus {
  bool active = false;
  std::string path;
  long frames = 0;
  int fps = 0;
};

struct ViewerControls {
  PackVariant pack = PackVariant::Vector;
  bool paused = false;
  bool panel_visible = true;
  int particles_input = 0;   // the N field, applied by its button
  int draw_limit = 0;        // most particles drawn per frame (--draw-limit); 0 = all
  int draw_limit_input = 0;  // the limit field, applied by its button; kept while "draw all" is on
  std::string screenshot_path = "coalesce-screenshot.png";
  std::string clip_path;  // the record button's path: --record's, else coalesce-clip.mp4 (or a directory)
  float brightness = 1.0f;
};

// Everything the panel and the JSON read, gathered by the frame loop (non-owning).
struct ViewerModel {
  const ViewerSimulation* simulation = nullptr;
  const ViewerStats* stats = nullptr;
  const FrameStats* frames = nullptr;
  const LayoutSweep* sweep = nullptr;
  const ViewerHardware* hardware = nullptr;  // the GPU's own counters, or why there are none
  RenderPathMode render_path = RenderPathMode::HostUpload;
  const ViewerDraw* draw = nullptr;  // points or splat, and why
  std::string target;  // window or headless context, GL renderer
  std::vector<Notice> notices;
  std::optional<NonFiniteReport> non_finite;
  std::string last_screenshot;  // path of the last PNG written
  int drawn_particles = 0;      // fewer than N only when N exceeds the draw limit
  const OrbitCamera* camera = nullptr;
  float orbit_degrees_per_second = 0.0f;  // --orbit
  RecordingStatus recording;
  const SnapshotStatus* snapshots = nullptr;
  std::string last_clip;  // path of the last clip written
  std::optional<TreeReport> tree;  // the tree's last kick: counts and stage times; none off the tree
  std::optional<ErrorCheckResult>
      tree_error;  // the live error check's latest (app/services/tree_error_check.h)
};

}  // namespace coalesce
