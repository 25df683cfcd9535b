// The option table (see cli_table.h): every flag (README, "Command line") and how its value is checked and stored.
#include "app/cli/cli_table.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "app/bench/bench_plot.h"
#include "sim/errors.h"
#include "sim/force_method.h"
#include "sim/layout.h"
#include "sim/printable.h"

namespace coalesce::cli {
namespace {

constexpr std::int64_t kMinPixels = 64;
constexpr std::int64_t kMaxPixels = 16384;  // the largest GL_MAX_TEXTURE_SIZE commonly found
constexpr std::int64_t kMaxSteps = 1'000'000'000'000;
constexpr std::int64_t kMaxFrames = 100'000'000;
constexpr std::int64_t kMaxRepeats = 100'000;

int particle_count(std::string_view text, const ValueContext& context) {
  return static_cast<int>(parse_integer(context, text, 1, kMaxParticles));
}

int pixels(std::string_view text, const ValueContext& context) {
  return static_cast<int>(parse_integer(context, text, kMinPixels, kMaxPixels));
}

void set_backend(Options& o, std::string_view v, const ValueContext& c) {
  if (v == "cuda")
    o.backend = BackendChoice::Cuda;
  else if (v == "cpu")
    o.backend = BackendChoice::Cpu;
  else
    throw UsageError(bad_choice(c, v, "cuda|cpu"));
}

// "best" leaves the choice to the CPU; a named target must be one this CPU runs, or the run would fail later.
void set_cpu_target(Options& o, std::string_view v, const ValueContext& c) {
  if (v == "best") {
    o.cpu_target.reset();
    return;
  }
  const auto target = parse_cpu_target_name(v);
  if (!target) {
    // The nearest name may be a target this CPU cannot run: then the fix is best, and the line says why.
    const auto near = nearest(v, split_choices(kCpuTargetChoices));
    const auto meant = near ? parse_cpu_target_name(*near) : std::nullopt;
    if (meant && !cpu_target_supported(*meant))
      throw UsageError(std::string(c.flag) + " must be one of " + std::string(kCpuTargetChoices) + ", got '" +
                       excerpt(v) + "': " + std::string(*near) + " is nearest, but " +
                       unsupported_cpu_target_text(*meant) + "; use --cpu-target best");
    throw UsageError(bad_choice(c, v, kCpuTargetChoices));
  }
  if (!cpu_target_supported(*target))
    throw UsageError(std::string(c.flag) + " " + std::string(v) + ": " + unsupported_cpu_target_text(*target) +
                     "; use --cpu-target best");
  o.cpu_target = *target;
}

// auto leaves the choice to a measurement at the start of the run (sim/auto_choice.h).
void set_forces(Options& o, std::string_view v, const ValueContext& c) {
  if (v == "auto") {
    o.forces.reset();
    return;
  }
  o.forces = parse_forces(v);
  if (!o.forces) throw UsageError(bad_choice(c, v, kForcesChoices));
}

void set_layout(Options& o, std::string_view v, const ValueContext& c) {
  const auto layout = parse_layout(v);
  if (!layout) throw UsageError(bad_choice(c, v, kLayoutChoices));
  o.layout = *layout;
}

void set_solver(Options& o, std::string_view v, const ValueContext& c) {
  o.solver = parse_solver_family(v);
  if (!o.solver) throw UsageError(bad_choice(c, v, kSolverFamilyChoices));
}

void set_scene(Options& o, std::string_view v, const ValueContext& c) {
  if (v.empty())
    throw UsageError(std::string(c.flag) + " needs a preset name or a file path (try --scene plummer)");
  o.scene = std::string(v);
}

// The viewer takes one N; bench takes a list, so `bench --particles 65536,262144` sweeps both.
void set_particles(Options& o, std::string_view v, const ValueContext& c) {
  if (o.command != Command::Bench) {
    o.particles = particle_count(v, c);
    return;
  }
  ValueContext list_context{c.flag, "65536,262144"};
  for (const std::string& item : split_list(list_context, v))
    o.bench_particles.push_back(particle_count(item, list_context));
}

// Adds `value` (the list item `item`) to a bench list that must not name anything twice.
template <class T>
void append_once(std::vector<T>& list, T value, const std::string& item, const ValueContext& c) {
  if (std::find(list.begin(), list.end(), value) != list.end())
    throw UsageError(std::string(c.flag) + " names '" + item + "' twice (try " + std::string(c.flag) + " " +
                     std::string(c.example) + ")");
  list.push_back(value);
}

// One precision for the viewer, --steps and lab; bench takes a list, so `bench --precision fp32,fp64` sweeps
// both.
void set_precision(Options& o, std::string_view v, const ValueContext& c) {
  const auto one = [&](std::string_view text, const ValueContext& context) {
    const auto precision = parse_precision(text);
    if (!precision)
      throw UsageError(o.command == Command::Bench ? bad_list_item(context, v, text, kPrecisionChoices)
                                                   : bad_choice(context, text, kPrecisionChoices));
    return *precision;
  };
  if (o.command != Command::Bench) {
    o.precision = one(v, c);
    return;
  }
  ValueContext list_context{c.flag, "fp32,fp64"};
  for (const std::string& item : split_list(list_context, v))
    append_once(o.bench_precisions, one(item, list_context), item, list_context);
}

// 0 draws every particle; a limit below N / 128 still draws N / 128 (the renderer's largest stride).
void set_draw_limit(Options& o, std::string_view v, const ValueContext& c) {
  o.draw_limit = static_cast<int>(parse_integer(c, v, 0, kMaxParticles, "0 draws all"));
}

void set_draw(Options& o, std::string_view v, const ValueContext& c) {
  if (v == "auto")
    o.draw = DrawChoice::Auto;
  else if (v == "points")
    o.draw = DrawChoice::Points;
  else if (v == "splat")
    o.draw = DrawChoice::Splat;
  else
    throw UsageError(bad_choice(c, v, "points|splat|auto"));
}

void set_dt(Options& o, std::string_view v, const ValueContext& c) {
  o.dt = parse_double(c, v, kTimeStepRange);
}
// Bounded below: all-pairs includes the self term, m * eps^-3 * 0, which must stay finite (sim/limits.h).
void set_softening(Options& o, std::string_view v, const ValueContext& c) {
  o.softening = parse_double(c, v, kSofteningRange);
}
void set_theta(Options& o, std::string_view v, const ValueContext& c) {
  o.theta = parse_double(c, v, kThetaRange);
}
void set_seed(Options& o, std::string_view v, const ValueContext& c) {
  o.seed = parse_unsigned64(c, v);
}

void set_pack(Options& o, std::string_view v, const ValueContext& c) {
  o.pack = parse_pack_variant(v);
  if (!o.pack) throw UsageError(bad_choice(c, v, "naive|tiled|tiled-padded|vector"));
}

void set_width(Options& o, std::string_view v, const ValueContext& c) {
  o.width = pixels(v, c);
}
void set_height(Options& o, std::string_view v, const ValueContext& c) {
  o.height = pixels(v, c);
}
void set_headless(Options& o, std::string_view, const ValueContext&) {
  o.headless = true;
}

void set_frames(Options& o, std::string_view v, const ValueContext& c) {
  o.frames = static_cast<int>(parse_integer(c, v, 1, kMaxFrames));
}

void set_sweep(Options& o, std::string_view v, const ValueContext& c) {
  o.sweep_frames = static_cast<int>(parse_integer(c, v, 1, kMaxFrames));
}
void set_sweep_precisions(Options& o, std::string_view, const ValueContext&) {
  o.sweep_precisions = true;
}

// The name is checked against the lab's registry when the viewer starts (app/lab/lab_tab.cpp), as --only's is.
void set_lab_tab(Options& o, std::string_view v, const ValueContext& c) {
  if (v.empty())
    throw UsageError(std::string(c.flag) + " needs a lab experiment name (try " + std::string(c.flag) + " " +
                     std::string(c.example) + ")");
  o.lab_tab = std::string(v);
}

void set_no_interop(Options& o, std::string_view, const ValueContext&) {
  o.no_interop = true;
}

// Capture (docs/capture.md). A clip of at most a day at the highest rate stays far below kMaxFrames' range.
constexpr std::int64_t kMaxRecordFps = 240;
constexpr FloatRange kRecordSecondsRange{0.001f, 86400.0f};
constexpr FloatRange kYawRange{-36000.0f, 36000.0f};
constexpr FloatRange kOrbitRange{-3600.0f, 3600.0f};
constexpr FloatRange kBrightnessRange{kMinBrightness, kMaxBrightness};

void set_record(Options& o, std::string_view v, const ValueContext& c) {
  if (v.empty())
    throw UsageError(std::string(c.flag) + " needs PATH.mp4 or a directory (try " + std::string(c.flag) + " " +
                     std::string(c.example) + ")");
  o.record = std::string(v);
}
void set_record_fps(Options& o, std::string_view v, const ValueContext& c) {
  o.record_fps = static_cast<int>(parse_integer(c, v, 1, kMaxRecordFps));
}
void set_record_seconds(Options& o, std::string_view v, const ValueContext& c) {
  o.record_seconds = parse_float(c, v, kRecordSecondsRange);
}

// yaw,pitch,distance[,tx,ty,tz]: each number checked against its own range, named in the error.
void set_camera(Options& o, std::string_view v, const ValueContext& c) {
  const std::vector<std::string> items = split_list(c, v);
  if (items.size() != 3 && items.size() != 6)
    throw UsageError(std::string(c.flag) + " takes yaw,pitch,distance or yaw,pitch,distance,tx,ty,tz (3 or 6 " +
                     "numbers), got " + std::to_string(items.size()) + " in '" + std::string(v) + "' (try " +
                     std::string(c.flag) + " " + std::string(c.example) + ")");
  const auto number = [&](std::size_t i, std::string_view what, const auto& range) {
    const std::string flag = std::string(c.flag) + "'s " + std::string(what);
    return parse_double(ValueContext{flag, c.example}, items[i], range);
  };
  CameraPose pose;
  pose.yaw_degrees = number(0, "yaw (degrees)", kYawRange);
  pose.pitch_degrees = number(1, "pitch (degrees)", kCameraPitchRange);
  pose.distance = static_cast<float>(number(2, "distance", kCameraDistanceRange));
  for (std::size_t axis = 0; axis < 3 && items.size() == 6; ++axis)
    pose.target[axis] = static_cast<float>(number(3 + axis, std::string("t") + "xyz"[axis], kCoordinateRange));
  o.camera = pose;
}
void set_brightness(Options& o, std::string_view v, const ValueContext& c) {
  o.brightness = parse_float(c, v, kBrightnessRange);
}
void set_no_panel(Options& o, std::string_view, const ValueContext&) {
  o.panel_hidden = true;
}
void set_orbit(Options& o, std::string_view v, const ValueContext& c) {
  o.orbit_degrees_per_second = parse_float(c, v, kOrbitRange);
}

void set_steps(Options& o, std::string_view v, const ValueContext& c) {
  o.steps = parse_integer(c, v, 0, kMaxSteps);
}

// Paths must not be empty; whether their directory exists is check_paths' job (it touches the disk).
std::string path_value(std::string_view v, const ValueContext& c) {
  if (v.empty())
    throw UsageError(std::string(c.flag) + " needs a file path (try " + std::string(c.flag) + " " +
                     std::string(c.example) + ")");
  return std::string(v);
}

void set_screenshot(Options& o, std::string_view v, const ValueContext& c) {
  o.screenshot = path_value(v, c);
}
void set_save_state(Options& o, std::string_view v, const ValueContext& c) {
  o.save_state = path_value(v, c);
}
void set_load_state(Options& o, std::string_view v, const ValueContext& c) {
  o.load_state = path_value(v, c);
}
// --snapshot-every K DIR: called with K, then with DIR.
void set_snapshot_every(Options& o, std::string_view v, const ValueContext& c) {
  if (!o.snapshot_every)
    o.snapshot_every = parse_integer(c, v, 1, kMaxSteps);
  else
    o.snapshot_dir = path_value(v, c);
}
void set_monitor_every(Options& o, std::string_view v, const ValueContext& c) {
  o.monitor_every = parse_integer(c, v, 1, kMaxSteps);
}
void set_state_format(Options& o, std::string_view v, const ValueContext& c) {
  o.state_format = parse_state_format(v);
  if (!o.state_format) throw UsageError(bad_choice(c, v, kStateFormatChoices));
}
void set_camera_from(Options& o, std::string_view v, const ValueContext& c) {
  o.camera_from = path_value(v, c);
}
void set_json(Options& o, std::string_view v, const ValueContext& c) {
  o.json = path_value(v, c);
}

// bench's saved runs: --compare takes two files (apply once each), --from one; --plot's extension picks
// the format.
void set_compare(Options& o, std::string_view v, const ValueContext& c) {
  o.bench_compare.push_back(path_value(v, c));
}
void set_from(Options& o, std::string_view v, const ValueContext& c) {
  o.bench_from = path_value(v, c);
}
void set_plot(Options& o, std::string_view v, const ValueContext& c) {
  o.bench_plot = path_value(v, c);
  if (!plot_format(o.bench_plot))
    throw UsageError(std::string(c.flag) + " '" + o.bench_plot +
                     "': the extension picks the format, .png or .svg (try " + std::string(c.flag) + " " +
                     std::string(c.example) + ")");
}

void set_layouts(Options& o, std::string_view v, const ValueContext& c) {
  for (const std::string& item : split_list(c, v)) {
    const auto layout = parse_layout(item);
    if (!layout) throw UsageError(bad_list_item(c, v, item, kLayoutChoices));
    append_once(o.bench_layouts, *layout, item, c);
  }
}

void set_repeats(Options& o, std::string_view v, const ValueContext& c) {
  o.repeats = static_cast<int>(parse_integer(c, v, 1, kMaxRepeats));
}

// The transpose side: whole 256-wide tiles of the lab's kernels, and at most 1 GiB per matrix.
void set_size(Options& o, std::string_view v, const ValueContext& c) {
  const auto side = parse_integer(c, v, kMinLabSide, kMaxLabSide, "a multiple of 256");
  if (side % 256 != 0)
    throw UsageError(std::string(c.flag) + " " + std::string(v) + " is not a multiple of 256; expected " +
                     describe_integers(kMinLabSide, kMaxLabSide) + ", a multiple of 256 (try " +
                     std::string(c.flag) + " " + std::string(c.example) + ", or 1024 for a quick run)");
  o.lab_size = static_cast<int>(side);
}

void set_only(Options& o, std::string_view v, const ValueContext& c) {
  o.lab_only = split_list(c, v);
}
void set_no_warmup(Options& o, std::string_view, const ValueContext&) {
  o.lab_no_warmup = true;
}
void set_counters(Options& o, std::string_view, const ValueContext&) {
  o.counters = true;
}
void set_no_counters(Options& o, std::string_view, const ValueContext&) {
  o.counters = false;
}
void set_help(Options& o, std::string_view, const ValueContext&) {
  o.show_help = true;
}
void set_version(Options& o, std::string_view, const ValueContext&) {
  o.show_version = true;
}

constexpr unsigned kViewerBench = kViewer | kBench;

// The ranges --help states, from the same constants the parsers check.
std::string particles_range() {
  return describe_integers(1, kMaxParticles);
}
std::string draw_limit_range() {
  return describe_integers(0, kMaxParticles);
}
std::string dt_range() {
  return describe(kTimeStepRange);
}
std::string softening_range() {
  return describe(kSofteningRange);
}
std::string theta_range() {
  return describe(kThetaRange) + "; default " + exact_text(kDefaultTheta);
}
std::string pixels_range() {
  return describe_integers(kMinPixels, kMaxPixels);
}
std::string frames_range() {
  return describe_integers(1, kMaxFrames);
}
std::string steps_range() {
  return describe_integers(0, kMaxSteps);
}
std::string every_range() {
  return describe_integers(1, kMaxSteps);
}
std::string repeats_range() {
  return describe_integers(1, kMaxRepeats);
}
std::string record_fps_range() {
  return describe_integers(1, kMaxRecordFps);
}
std::string record_seconds_range() {
  return describe(kRecordSecondsRange);
}
std::string camera_range() {
  return "pitch " + describe(kCameraPitchRange) + ", distance " + describe(kCameraDistanceRange);
}
std::string brightness_range() {
  return describe(kBrightnessRange);
}
std::string orbit_range() {
  return describe(kOrbitRange);
}
std::string size_range() {
  return describe_integers(kMinLabSide, kMaxLabSide) + ", a multiple of 256";
}

const OptionSpec kOptions[] = {
    {"--backend", "cuda|cpu", "cpu", kViewerBench, "compute backend (default: cuda when a device exists)",
     set_backend, nullptr},
    {"--layout", kLayoutChoices, "float4", kViewer, "particle memory layout (default: float4)", set_layout,
     nullptr},
    {"--precision", kPrecisionChoices, "fp64", kViewerBench | kLab,
     "the state's floating-point type (default: fp32); bench: a comma list, fp32,fp64 sweeps both; lab: "
     "the particles experiment's records (fp64-vectors is fp64 and the rest fp32 either way)",
     set_precision, nullptr},
    {"--cpu-target", kCpuTargetChoices, "avx2", kViewerBench,
     "the CPU backend's SIMD target (default: best, the widest this CPU runs); a lower one measures and "
     "tests that path",
     set_cpu_target, nullptr},
    {"--forces", kForcesChoices, "mutual", kViewerBench,
     "all-pairs: one-sided evaluates every ordered pair, mutual each unordered pair once for both bodies; "
     "auto (default) measures both at the start and keeps mutual only when it is clearly faster, saying "
     "which; "
     "bench: both, a row each",
     set_forces, nullptr},
    {"--solver", kSolverFamilyChoices, "all-pairs", kViewerBench,
     "force solver (default: the scene's; bench: each)", set_solver, nullptr},
    {"--theta", "T", "0.25", kViewerBench,
     "the tree's opening angle: smaller is more exact and slower, 0 opens every node (default: chosen for "
     "a 99th-percentile acceleration error of 5e-4 or less in the preset scenes as they start; it grows as "
     "the galaxies evolve)",
     set_theta, theta_range},
    {"--scene", "NAME|FILE", "galaxies", kViewer,
     "plummer, galaxies (default), disk, cube, swirl, or a TOML file", set_scene, nullptr},
    {"--particles", "N", "65536", kViewerBench, "particle count; bench: a comma list of counts",
     set_particles, particles_range},
    {"--draw", "points|splat|auto", "splat", kViewer,
     "draw GL point sprites or the CUDA splat (needs CUDA-GL interop); auto (default): the faster here",
     set_draw, nullptr},
    {"--draw-limit", "N", "4194304", kViewer,
     "most particles drawn a frame (every k-th, k x the light); 0 = all (default: all with splat, "
     "4194304 with points)",
     set_draw_limit, draw_limit_range},
    {"--dt", "SECONDS", "0.001", kViewer, "time step (default: the scene's)", set_dt, dt_range},
    {"--softening", "EPS", "0.05", kViewer, "Plummer softening (default: the scene's)", set_softening,
     softening_range},
    {"--seed", "S", "42", kViewer, "random seed of the initial state (default: the scene's)", set_seed,
     nullptr},
    {"--pack", "naive|tiled|tiled-padded|vector", "tiled", kViewer,
     "render-buffer pack variant (default: fastest measured)", set_pack, nullptr},
    {"--no-interop", "", "", kViewer, "CUDA backend: draw through the copy path, not CUDA-GL interop",
     set_no_interop, nullptr},
    {"--brightness", "X", "1.5", kViewer, "light of every particle, as the panel's slider (default: 1)",
     set_brightness, brightness_range},
    {"--no-panel", "", "", kViewer, "start with the panel hidden (H shows it)", set_no_panel, nullptr},
    {"--width", "PIXELS", "1600", kViewer, "window or image width (default: 1600)", set_width, pixels_range},
    {"--height", "PIXELS", "900", kViewer, "window or image height (default: 900)", set_height, pixels_range},
    {"--headless", "", "", kViewer, "render offscreen (EGL), no display needed; needs --frames", set_headless,
     nullptr},
    {"--frames", "N", "120", kViewer, "render N frames, then exit (with or without a window)", set_frames,
     frames_range},
    {"--screenshot", "PATH", "out/shot.png", kViewer,
     "after --frames N, a PNG, and its JSON (PATH with .json)", set_screenshot, nullptr},
    {"--sweep", "FRAMES", "60", kViewer,
     "sweep the layouts from the first frame, FRAMES frames each (Compare)", set_sweep, frames_range},
    {"--sweep-precisions", "", "", kViewer,
     "with --sweep: every layout in --precision, then in the other (6 x FRAMES), then back",
     set_sweep_precisions, nullptr},
    {"--lab-tab", "NAME", "transpose", kViewer, "open the panel's Lab tab and run experiment NAME there once",
     set_lab_tab, nullptr},
    {"--record", "PATH", "out/clip.mp4", kViewer,
     "record a clip with the panel: PATH.mp4 (needs ffmpeg) or a directory of PNGs; key V, panel button",
     set_record, nullptr},
    {"--record-fps", "FPS", "30", kViewer, "clip frame rate; one simulation step per frame (default: 30)",
     set_record_fps, record_fps_range},
    {"--record-seconds", "S", "10", kViewer, "clip length in seconds of video (default: until stopped)",
     set_record_seconds, record_seconds_range},
    {"--camera", "YAW,PITCH,DIST[,TX,TY,TZ]", "30,20,12", kViewer,
     "camera pose, degrees and scene units (default: framed on the scene; JSON records it)", set_camera,
     camera_range},
    {"--orbit", "DEG_PER_S", "20", kViewer, "turn the camera steadily (per second of video when recording)",
     set_orbit, orbit_range},
    {"--camera-from", "JSON", "out/shot.json", kViewer,
     "restore a screenshot's or clip's camera, scene, N, layout, solver, dt, softening, seed, draw, size",
     set_camera_from, nullptr},
    {"--steps", "N", "200", kViewer, "simulate N steps with no window, print stats (Ctrl-C stops, saves)",
     set_steps, steps_range},
    {"--save-state", "PATH", "out/state.npy", kViewer,
     "write the final state, also after Ctrl-C: .npy or .hdf5/.h5 (float32, or float64 with --precision "
     "fp64), .tipsy (float32)",
     set_save_state, nullptr},
    {"--load-state", "PATH", "out/state.npy", kViewer,
     "start from a state: .npy, Tipsy (.tipsy, either byte order), GADGET HDF5 (.hdf5, .h5); N from the file",
     set_load_state, nullptr},
    {"--format", "FORMAT", "tipsy", kViewer,
     "state file format where the extension says nothing (snapshots, --save-state): "
     "npy|tipsy|tipsy-native|hdf5",
     set_state_format, nullptr},
    {"--snapshot-every", "K DIR", "100 out/snaps", kViewer,
     "write the state every K steps into the new or empty folder DIR, with DIR/index.json; viewer key N",
     set_snapshot_every, every_range, 2},
    {"--monitor-every", "K", "100", kViewer,
     "--steps: print energy, its drift, momentum, angular momentum and virial ratio every K steps",
     set_monitor_every, every_range},
    {"--layouts", "LIST", kLayoutList, kBench, "layouts to sweep (default: all)", set_layouts, nullptr},
    {"--json", "FILE", "out/results.json", kBench | kLab, "also write the results as JSON (- : stdout)",
     set_json, nullptr, 1, true},
    {"--repeats", "N", "5", kBench | kLab, "timed repeats per measurement; the median is reported",
     set_repeats, repeats_range},
    {"--compare", "A.json B.json", "a.json b.json", kBench,
     "compare two saved runs (--json) row by row: B/A, within noise or not; runs nothing", set_compare,
     nullptr, 2, true},
    {"--plot", "OUT.png|OUT.svg", "out/bench.png", kBench,
     "also draw the run as a bar chart (% of copy; interactions/s for all-pairs forces)", set_plot, nullptr,
     1, true},
    {"--from", "RUN.json", "out/bench.json", kBench,
     "with --plot: draw this saved run instead of running one", set_from, nullptr, 1, true},
    {"--size", "N", "8192", kLab, "transpose side; the other experiments scale with it", set_size,
     size_range},
    {"--only", "LIST", "transpose", kLab, "experiments to run, comma-separated (default: all)", set_only,
     nullptr},
    {"--no-warmup", "", "", kLab, "no warm-up launches (for profilers, which replay every launch)",
     set_no_warmup, nullptr},
    {"--counters", "", "", kViewer | kBench | kLab,
     "hardware counters (CUPTI): bench, lab: a pass per row after the timed one; viewer: the live DRAM and "
     "clock plots (default where available)",
     set_counters, nullptr},
    {"--no-counters", "", "", kViewer | kBench | kLab,
     "no hardware counters (for Nsight or compute-sanitizer, which need CUPTI to themselves)",
     set_no_counters, nullptr},
    {"--help", "", "", kAll, "print this help and exit", set_help, nullptr, 1, true},
    {"--version", "", "", kAll, "print the version and the features built in, and exit", set_version, nullptr,
     1, true},
};

}  // namespace

const OptionSpec* option_table_begin() {
  return std::begin(kOptions);
}
const OptionSpec* option_table_end() {
  return std::end(kOptions);
}

const OptionSpec* find_option(std::string_view name) {
  if (name == "-h") name = "--help";
  for (const OptionSpec& spec : kOptions)
    if (spec.name == name) return &spec;
  return nullptr;
}

std::string_view command_name(Command command) {
  switch (command) {
    case Command::Viewer:
      return "the viewer (no subcommand)";
    case Command::Bench:
      return "coalesce bench";
    case Command::Lab:
      return "coalesce lab";
  }
  return "?";
}

unsigned scope_of(Command command) {
  switch (command) {
    case Command::Viewer:
      return kViewer;
    case Command::Bench:
      return kBench;
    case Command::Lab:
      return kLab;
  }
  return 0;
}

}  // namespace coalesce::cli
