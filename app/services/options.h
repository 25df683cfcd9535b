// Everything the command line can say, parsed once and handed to the chosen command.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/layout.h"
#include "sim/cpu_target.h"
#include "sim/force_method.h"
#include "sim/precision.h"
#include "sim/state_file.h"
#include "sim/tree_settings.h"

namespace coalesce {

enum class Command { Viewer, Bench, Lab };
enum class BackendChoice { Auto, Cuda, Cpu };
// --draw: GL point sprites, the CUDA splat, or whichever measures faster on this GPU at start.
enum class DrawChoice { Auto, Points, Splat };
inline constexpr int kDefaultDrawLimit = 1 << 22;  // --draw-limit's default on the point path: 4194304
inline constexpr int kMinLabSide = 256;            // lab --size: whole tiles of the transpose kernels
inline constexpr int kMaxLabSide = 16384;          // 1 GiB per matrix
inline constexpr float kMinBrightness = 0.1f;      // --brightness and the panel's slider
inline constexpr float kMaxBrightness = 4.0f;
inline constexpr int kDefaultRecordFps = 30;       // --record-fps: one simulation step per recorded frame

// --camera yaw,pitch,distance[,tx,ty,tz]: the orbit camera's pose, angles in degrees (render/orbit_camera.h).
struct CameraPose {
  double yaw_degrees = 0.0;  // double: a pose read back from the JSON is the pose written
  double pitch_degrees = 0.0;
  float distance = 1.0f;
  float target[3] = {0.0f, 0.0f, 0.0f};
};

struct Options {
  Command command = Command::Viewer;
  bool show_help = false;     // --help / -h: print usage_text() and exit 0
  bool show_version = false;  // --version: print version_text() and exit 0

  // Common options (README, "Command line"). Unset optionals mean "take the scene's value".
  BackendChoice backend = BackendChoice::Auto;
  Layout layout = Layout::Float4;
  Precision precision = Precision::Fp32;  // --precision: the state's floating-point type
  std::optional<CpuTarget> cpu_target;    // --cpu-target: the CPU backend's SIMD target; none: the widest
  std::optional<ForceMethod> solver;      // --solver: a family, as its first row (sim/force_method.h)
  std::optional<ForceMethod> forces;  // --forces: a row of the family; none: auto (bench: each, a row each)
  std::optional<double> theta;        // --theta: the tree's opening angle; none: kDefaultTheta
  std::string scene = "galaxies";  // preset name or TOML file path
  std::optional<int> particles;
  std::optional<double> dt;  // as typed (sim/sim_params.h)
  std::optional<double> softening;
  std::optional<std::uint64_t> seed;
  std::optional<PackVariant> pack;  // default: fastest measured on this device
  int width = 1600;
  int height = 900;
  // Viewer: most particles drawn per frame (every k-th, with k times the light); 0 = all. Unset: all on
  // the splat path, kDefaultDrawLimit on the point path, which is vertex bound on an H100 (docs/viewer.md).
  std::optional<int> draw_limit;
  DrawChoice draw = DrawChoice::Auto;

  // Viewer and scripting.
  bool headless = false;
  std::optional<int> frames;          // headless: frames to render before exiting
  std::string screenshot;             // PNG path; the JSON goes beside it
  std::optional<std::int64_t> steps;  // run N steps with no window and exit
  std::string save_state;             // the state written at exit, in its extension's format
  std::string load_state;             // the state to start from (.npy, Tipsy, GADGET HDF5)
  std::optional<StateFormat> state_format;     // --format: for state paths whose extension says nothing
  std::optional<std::int64_t> snapshot_every;  // --snapshot-every K DIR: the state every K steps into DIR
  std::string snapshot_dir;
  std::optional<std::int64_t> monitor_every;  // --monitor-every K: energy, momenta, virial every K steps
  std::optional<int> sweep_frames;    // --sweep K: sweep the layouts from the first frame, K frames each
  bool sweep_precisions = false;      // --sweep-precisions: --sweep runs every layout in every precision
  std::string lab_tab;                // --lab-tab NAME: open the panel's Lab tab and run NAME there once
  bool no_interop = false;            // --no-interop: the CUDA backend draws through the copy path
  float brightness = 1.0f;            // --brightness: the panel's slider, times the sprites' light
  bool panel_hidden = false;          // --no-panel: start with the panel hidden (H shows it)

  // Capture: clips and reproducible cameras (docs/capture.md).
  std::string record;                   // --record PATH: PATH.mp4 (through ffmpeg) or a directory of PNGs
  int record_fps = kDefaultRecordFps;   // frames per second of the clip, one simulation step each
  std::optional<double> record_seconds;  // the clip's length in seconds of video; unset: until stopped
  std::optional<CameraPose> camera;     // --camera: the first frame's view (default: framed on the scene)
  float orbit_degrees_per_second = 0.0f;  // --orbit: yaw turned per second (of video while recording)
  std::string camera_from;              // --camera-from: a screenshot or clip JSON whose settings return
  std::vector<std::string> given;       // the flags given on the command line, so --camera-from leaves them

  // bench: sweeps; lab: experiments.
  std::vector<int> bench_particles;   // empty: the command's defaults
  std::vector<Layout> bench_layouts;  // empty: all
  std::vector<Precision> bench_precisions;  // bench --precision LIST; empty: fp32
  std::string json;                   // JSON output path (bench, lab)
  int repeats = 0;                    // 0: the command's default
  std::optional<int> lab_size;        // lab: matrix side / element count scale
  std::vector<std::string> lab_only;  // lab: experiment names to run (empty: all)
  bool counters = true;               // bench, lab: a hardware counter pass per row (--no-counters: off)
  bool lab_no_warmup = false;         // lab --no-warmup: no warm-up launches (profilers replay each one)
  // bench: saved runs (docs/bench-json.md). --compare A B and --from FILE run nothing.
  std::vector<std::string> bench_compare;  // --compare A.json B.json
  std::string bench_plot;                  // --plot OUT.png|OUT.svg: the run drawn as a chart
  std::string bench_from;                  // --from RUN.json: --plot draws this saved run
};

// A clip of known length (--record with --record-seconds): with --headless it ends the run by itself.
inline bool clip_has_length(const Options& options) {
  return !options.record.empty() && options.record_seconds.has_value();
}

// --theta's tree settings (the rest of TreeSettings as built).
inline TreeSettings tree_settings_of(const Options& options) {
  TreeSettings settings;
  if (options.theta) settings.theta = *options.theta;
  return settings;
}

}  // namespace coalesce
