// Builds the screenshot JSON (schema in docs/viewer.md) from the same model the panel draws.
#include "app/viewer/viewer_report.h"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "app/services/device_report.h"
#include "app/services/report_schemas.h"
#include "app/services/tree_report_json.h"
#include "app/services/utc_time.h"
#include "app/viewer/viewer_panel.h"
#include "app/viewer/viewer_report_hardware.h"
#include "sim/force_method.h"
#include "sim/memory_ceiling.h"
#include "sim/path_parts.h"
#include "sim/scene.h"

namespace coalesce {
namespace {

using nlohmann::json;

std::string text(std::string_view view) {
  return std::string(view);
}

json kernels_json(const ViewerModel& model, Layout layout, Precision precision, ForceMethod method,
                  const DeviceInfo& device) {
  const double copy_peak = device.copy_peak_gbps;
  json kernels = json::object();
  for (KernelKind kind : {KernelKind::Forces, KernelKind::Integrate, KernelKind::Pack, KernelKind::Convert}) {
    const KernelStats& s = model.stats->kernel(kind);
    if (!s.seen()) continue;
    json k = {
        {"milliseconds", s.milliseconds.value()},
        {"gigabytes_per_second", s.gigabytes_per_second.value()},
        {"percent_of_copy_peak", copy_peak > 0 ? 100.0 * s.gigabytes_per_second.value() / copy_peak : 0.0},
        {"bytes_per_launch", s.bytes},
        {"scratch_bytes_per_launch", s.scratch_bytes},
        {"byte_formula", byte_formula(kind, layout, method, precision, s.scratch_bytes, s.scratch_what)},
        {"precision", text(to_string(precision))},  // the live table's: the run's now
        {"samples", s.milliseconds.count()},
        // Which of the numbers the panel shows: GB/s is kept raw but means nothing for all-pairs forces.
        {"metric", to_string(headline_metric(kind, method))}};
    // 0: not counted when the kick was queued (the tree on a GPU), so unknown, written null.
    if (kind == KernelKind::Forces)
      k["interactions_per_second"] =
          s.interactions_per_second.value() > 0 ? json(s.interactions_per_second.value()) : json(nullptr);
    // The ceiling the panel's % column compares with (sim/memory_ceiling.h); null for compute-bound forces.
    const Ceiling ceiling = kernel_ceiling(kind, device.gpu);
    const double ceiling_gbps = device.ceiling_gbps(ceiling);
    const bool memory_bound = headline_metric(kind, method) == KernelMetric::GigabytesPerSecond;
    k["ceiling"] = memory_bound ? json(std::string(ceiling_info(ceiling).name)) : json(nullptr);
    k["percent_of_ceiling"] = memory_bound && ceiling_gbps > 0
                                  ? json(100.0 * s.gigabytes_per_second.value() / ceiling_gbps)
                                  : json(nullptr);
    kernels[text(to_string(kind))] = k;
  }
  return kernels;
}

// Compare's rows of one precision, by layout; a layout's object is empty until it has run in it.
json compare_json(const ViewerModel& model, Precision precision, ForceMethod method) {
  json compare = json::object();
  for (Layout layout : kAllLayouts) {
    json per_layout = json::object();
    for (KernelKind kind : {KernelKind::Forces, KernelKind::Integrate, KernelKind::Pack}) {
      const CompareEntry& c = model.stats->compare(layout, precision, kind);
      if (!c.measured) continue;
      per_layout[text(to_string(kind))] = {{"milliseconds", c.milliseconds},
                                           {"gigabytes_per_second", c.gigabytes_per_second},
                                           {"interactions_per_second", c.interactions_per_second > 0
                                                                           ? json(c.interactions_per_second)
                                                                           : json(nullptr)},
                                           {"metric", to_string(headline_metric(kind, method))}};
    }
    compare[text(to_string(layout))] = per_layout;
  }
  return compare;
}

json compare_by_precision_json(const ViewerModel& model, ForceMethod method) {
  json by_precision = json::object();
  for (Precision precision : kAllPrecisions)
    by_precision[text(to_string(precision))] = compare_json(model, precision, method);
  return by_precision;
}

// --draw auto's start-up measurement: GPU ms per frame of each path; null when nothing was measured.
json calibration_json(const ViewerModel& model) {
  if (!model.draw || !model.draw->calibration()) return nullptr;
  return {{"points_ms", model.draw->calibration()->points_ms},
          {"splat_ms", model.draw->calibration()->splat_ms}};
}

// The shortest text that reads back as the same number, so --camera reproduces the pose exactly.
template <typename Number>
std::string shortest(Number value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

// The pose in --camera's units (degrees, yaw within [-180, 180]), and the flag that sets it again.
json camera_json(const ViewerModel& model) {
  if (!model.camera) return nullptr;
  const OrbitPose pose = model.camera->pose();
  const double yaw = std::remainder(pose.yaw_degrees, 360.0);
  const double pitch = pose.pitch_degrees;
  const std::string option = "--camera " + shortest(yaw) + "," + shortest(pitch) + "," + shortest(pose.distance) +
                             "," + shortest(pose.target.x) + "," + shortest(pose.target.y) + "," +
                             shortest(pose.target.z);
  return {{"yaw_degrees", yaw},
          {"pitch_degrees", pitch},
          {"distance", pose.distance},
          {"target", {pose.target.x, pose.target.y, pose.target.z}},
          {"orbit_degrees_per_second", model.orbit_degrees_per_second},
          {"field_of_view_y_degrees", OrbitCamera::field_of_view_y() * (180.0 / 3.14159265358979323846)},
          {"option", option}};
}

}  // namespace

namespace {

// `file` as seen from `folder`: relative where both resolve, else absolute, else as given.
std::string path_from(const std::string& file, const std::string& folder) {
  std::error_code error;
  const std::filesystem::path target = std::filesystem::weakly_canonical(file, error);
  if (error) return file;
  const std::filesystem::path base = std::filesystem::weakly_canonical(folder, error);
  if (error) return target.string();
  const std::filesystem::path relative = target.lexically_relative(base);
  return relative.empty() ? target.string() : relative.string();
}

// The row of the all-pairs family that ran; under attractors, which have none, the --forces given, which a
// switch to all-pairs uses and --camera-from restores (null: auto, measured again at the switch).
// The tree's last kick (settings, pulls per target, stage split) and the live error check; null off the
// tree. error is null until the first check (docs/viewer.md).
json tree_json(const ViewerModel& model) {
  if (!model.tree) return nullptr;
  json tree = tree_report_json(*model.tree);
  tree["source_order"] = text(to_string(model.tree->settings.source_order));
  tree["target_order"] = text(to_string(model.tree->settings.target_order));
  json error = nullptr;
  if (const auto& e = model.tree_error; e && e->errors.targets > 0)
    error = {{"targets", e->errors.targets},
             {"seed", e->seed},
             {"step", e->step},
             {"p50", e->errors.p50},
             {"p99", e->errors.p99},
             {"max", e->errors.max},
             {"check_ms", e->check_ms},
             {"interval_s", e->interval_s},
             {"share_of_run", e->share()}};
  tree["error"] = error;
  return tree;
}

json forces_json(const ViewerSimulation& sim) {
  if (has_forces_choice(sim.force_method())) return text(method_info(sim.force_method()).forces_name);
  const std::optional<ForceMethod> asked = sim.asked_forces();
  return asked ? json(text(method_info(*asked).forces_name)) : json(nullptr);
}

}  // namespace

void name_files_from(json& report, const std::string& json_path) {
  if (!report.contains("settings") || !report["settings"].is_object()) return;
  json& settings = report["settings"];
  const std::string folder = parent_of(json_path);
  for (const char* key : {"scene_source", "state_file"}) {
    if (!settings.contains(key) || !settings[key].is_string()) continue;
    const std::string named = settings[key].get<std::string>();
    if (std::string(key) == "scene_source" && is_preset(named)) continue;
    settings[key] = path_from(named, folder);
  }
}

std::string screenshot_json(const ViewerModel& model, const ViewerControls& controls, int width, int height,
                            const std::string& json_path) {
  json report = screenshot_report(model, controls, width, height);
  name_files_from(report, json_path);
  // Paths and scene names are the user's bytes: invalid UTF-8 is replaced, never an exception.
  return report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

json screenshot_report(const ViewerModel& model, const ViewerControls& controls, int width, int height) {
  const ViewerSimulation& sim = *model.simulation;
  const Backend& backend = sim.backend();
  const Scene& scene = sim.scene();
  const FrameStats& f = *model.frames;
  const InteropCost interop =
      interop_cost(f, model.stats->kernel(KernelKind::Pack), model.render_path == RenderPathMode::Interop);
  json notices = json::array();
  for (const Notice& n : model.notices) notices.push_back({{"text", n.text}, {"error", n.error}});
  json root = {
      {"schema", kScreenshotSchema},
      {"version", COALESCE_VERSION},
      {"taken_utc", utc_now()},
      {"image", {{"width", width}, {"height", height}, {"panel_visible", controls.panel_visible}}},
      {"device", device_json(backend.device_info())},
      {"backend", backend.name()},
      {"render",
       {{"path", to_string(model.render_path)},
        {"target", model.target},
        {"drawn_particles", model.drawn_particles},
        {"draw", model.draw ? to_string(model.draw->path()) : "points"},
        {"draw_reason", model.draw ? model.draw->reason() : std::string()},
        {"draw_calibration", calibration_json(model)}}},
      {"settings",
       {{"layout", text(to_string(backend.layout()))},
        {"precision", text(to_string(backend.precision()))},
        {"pack_variant", text(to_string(controls.pack))},
        {"solver", text(method_info(sim.force_method()).solver_name)},
        {"forces", forces_json(sim)},
        {"theta", family_of(sim.force_method()) == ForceMethod::Tree ? json(backend.tree_settings().theta)
                                                                     : json(nullptr)},
        {"scene", scene.name},                 // where solver, dt, softening and attractors came from
        {"scene_source", sim.scene_source()},  // the preset or file --scene names to load it again
        {"state_file", sim.state_file().empty() ? json(nullptr) : json(sim.state_file())},
        {"particles", backend.particle_count()},
        {"draw", model.draw ? to_string(model.draw->choice()) : "points"},
        {"draw_limit", controls.draw_limit},
        {"seed", sim.state_file().empty() ? json(scene.seed) : json(nullptr)},  // no seed made a loaded state
        {"dt", scene.params.dt},
        {"softening", scene.params.softening},
        {"attractors",
         method_info(sim.force_method()).physics == Physics::Attractors ? scene.params.attractors.count : 0},
        {"brightness", controls.brightness},
        {"paused", controls.paused}}},
      {"camera", camera_json(model)},
      // How the viewer chose N when nothing set it (app/services/start_size.h); null when the user or the
      // scene did.
      // "frames": the first frames' check (null until it settled: fewer than about 8 frames, or still going).
      {"start_size",
       sim.start_size().particles > 0
           ? json{{"particles", sim.start_size().particles},
                  {"reason", sim.start_size().reason},
                  {"frames", sim.start_size().frames.empty() ? json(nullptr) : json(sim.start_size().frames)}}
           : json(nullptr)},
      {"simulation", {{"step", sim.step_count()}, {"time", sim.time()}}},
      {"frame",
       {{"fps", f.fps()},
        {"frame_ms", f.frame_ms.value()},
        {"frame_ms_median", f.history_frame_ms.empty() ? json(nullptr) : json(f.median_frame_ms())},
        {"simulation_ms", f.simulation_ms.value()},
        {"upload_ms", f.upload_ms.value()},
        {"render_cpu_ms", f.render_cpu_ms.value()},
        {"render_gpu_ms", f.render_gpu_ms.value()},
        {"render_gpu_samples", f.render_gpu_ms.count()},
        {"splat_gpu_ms", f.splat_gpu_ms.value()},
        {"splat_gpu_samples", f.splat_gpu_ms.count()},
        {"draw_gpu_ms", f.draw_gpu_ms()},
        {"upload_share_of_frame", f.frame_ms.value() > 0 ? f.upload_ms.value() / f.frame_ms.value() : 0.0},
        {"interop_ms", interop.milliseconds},
        {"interop_share_of_frame", interop.share_of_frame},
        {"frames", f.frames + 1}}},  // this frame is drawn but FrameStats counts it after present()
      {"kernels",
       kernels_json(model, backend.layout(), backend.precision(), sim.force_method(), backend.device_info())},
      // compare: settings.precision's rows, as before precisions; compare_by_precision: every precision's.
      {"tree", tree_json(model)},
      {"compare", compare_json(model, backend.precision(), sim.force_method())},
      {"compare_by_precision", compare_by_precision_json(model, sim.force_method())},
      {"notices", notices},
      {"clocks", sampled_clocks_json(*model.hardware, backend.device_info())},
      {"hardware", sampled_hardware_json(*model.hardware, backend.precision())},
  };
  if (model.non_finite) {
    root["non_finite"] = {{"step", model.non_finite->step}, {"particle", model.non_finite->particle}};
  }
  return root;
}

}  // namespace coalesce
