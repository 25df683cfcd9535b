// --camera-from (see camera_from.h). Every value goes through the option table's own parser, so a file
// can set nothing the command line could not, with the same ranges. Paths the file names are relative to
// the file's own folder, where the shot was taken.
#include "app/cli/camera_from.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/cli_table.h"
#include "app/services/cuda_services.h"
#include "app/services/json_input.h"
#include "app/services/report_schemas.h"
#include "sim/errors.h"
#include "sim/input_file.h"
#include "sim/path_parts.h"
#include "sim/printable.h"
#include "sim/scene.h"

namespace coalesce {
namespace {

using nlohmann::json;

// The blocks the settings live in. The rest of a shot's JSON (kernels, frame times, counters, a clip's
// frames) is measurement, not settings: it is parsed and dropped as it is read, and never listed.
constexpr const char* kBlocks[] = {"settings", "image", "camera", "simulation"};

// Which keys of those blocks each writer emits (app/viewer/viewer_report.cpp, viewer_recording.cpp) and
// what a usable value is; a key listed here that nothing restored is named with it. "" marks what is no
// setting of its own: the attractors come with the scene, the field of view is this build's, camera.option
// is the pose again as a flag, and the simulated time goes with the step.
const std::vector<std::pair<std::string, std::string>> kKnownKeys = {
    {"settings.layout", "a string"},
    {"settings.precision", "a string"},
    {"settings.pack_variant", "a string"},
    {"settings.solver", "a string"},
    {"settings.scene", "a string"},
    {"settings.scene_source", "a string"},
    {"settings.state_file", "a string or null"},
    {"settings.particles", "an integer"},
    {"settings.draw", "a string"},
    {"settings.draw_limit", "an integer"},
    {"settings.seed", "an integer or null"},
    {"settings.dt", "a number"},
    {"settings.softening", "a number"},
    {"settings.brightness", "a number"},
    {"settings.paused", "true or false"},
    {"settings.attractors", ""},
    {"settings.forces", "a string or null"},
    {"settings.theta", "a number or null"},
    {"image.width", "an integer"},
    {"image.height", "an integer"},
    {"image.panel_visible", "true or false"},
    {"camera.yaw_degrees", "a number"},
    {"camera.pitch_degrees", "a number"},
    {"camera.distance", "a number"},
    {"camera.target", "three numbers"},
    {"camera.orbit_degrees_per_second", "a number"},
    {"camera.field_of_view_y_degrees", ""},
    {"camera.option", ""},
    {"simulation.step", "an integer"},
    {"simulation.time", ""}};

// Unknown keys named one by one before the rest are counted, and each reason at most this long (a flag's
// parser quotes the value), so the summary stays a line whatever the file holds.
constexpr std::size_t kUnknownKeysNamed = 8;
constexpr std::size_t kReasonBytes = 300;
// No file system takes a longer path (PATH_MAX): a longer name is not looked up, nor echoed.
constexpr std::size_t kMaxPathBytes = 4096;

// What of the file is built: the schema, the backend and the four blocks' own values (a nested value
// arrives empty), and the camera target's first four numbers (three are a target, four are too many).
bool is_read(const JsonPath& path) {
  if (path.size() == 1)
    return path[0] == "schema" || path[0] == "backend" ||
           std::find(std::begin(kBlocks), std::end(kBlocks), path[0]) != std::end(kBlocks);
  if (path.size() == 2) return true;
  return path.size() == 3 && path[0] == "camera" && path[1] == "target" && path[2].size() == 1 && path[2] < "4";
}

std::string number_text(const json& value) {
  std::ostringstream out;
  out.precision(17);  // a double's digits: the value reads back as the same number
  out << value.get<double>();
  return out.str();
}

class Restorer {
 public:
  explicit Restorer(CameraFromResult& result) : m_result(result) {}

  bool given(std::string_view flag) const {
    const std::vector<std::string>& g = m_result.options.given;
    return std::find(g.begin(), g.end(), flag) != g.end();
  }

  // Applies `flag value` as the command line would; `what` names it in the summary; `keys` ("settings.dt")
  // are accounted for whatever the outcome.
  void set(std::string_view flag, const std::string& value, const std::string& what,
           std::initializer_list<const char*> keys) {
    account(keys);
    if (given(flag)) {
      m_result.kept.emplace_back(flag);
      return;
    }
    const cli::OptionSpec* spec = cli::find_option(flag);
    try {
      spec->apply(m_result.options, value, cli::ValueContext{spec->name, spec->example});
      m_result.restored.push_back(what);
      m_flags.emplace_back(flag);
    } catch (const UsageError& e) {
      m_result.not_restored.push_back(what + " (" + excerpt(e.what(), kReasonBytes) + ")");
    }
  }

  void missing(const std::string& what, const std::string& why, std::initializer_list<const char*> keys) {
    account(keys);
    m_result.not_restored.push_back(what + " (" + why + ")");
  }

  // Keys read that need nothing done (a null state file, a panel left visible).
  void account(std::initializer_list<const char*> keys) { m_accounted.insert(keys.begin(), keys.end()); }

  // Every key of the four blocks that nothing above accounted for: a known key whose value was unusable,
  // or a key this coalesce does not know.
  void list_the_rest(const json& root) {
    std::vector<std::string> unknown;
    for (const char* block : kBlocks) {
      const auto it = root.find(block);
      if (it == root.end() || !it->is_object()) continue;
      for (const auto& item : it->items()) {
        const std::string key = std::string(block) + "." + item.key();
        if (m_accounted.count(key)) continue;
        const auto known = std::find_if(kKnownKeys.begin(), kKnownKeys.end(),
                                        [&](const auto& entry) { return entry.first == key; });
        if (known == kKnownKeys.end())
          unknown.push_back(excerpt(key));
        else if (!known->second.empty())
          m_result.not_restored.push_back(key + " (not " + known->second + " in the file)");
      }
    }
    for (std::size_t i = 0; i < unknown.size() && i < kUnknownKeysNamed; ++i)
      m_result.not_restored.push_back(unknown[i] + " (unknown to this coalesce)");
    if (unknown.size() > kUnknownKeysNamed)
      m_result.not_restored.push_back(std::to_string(unknown.size() - kUnknownKeysNamed) +
                                      " more keys unknown to this coalesce");
  }

  // The flags in effect now: the command line's and the restored ones, for check_combinations.
  std::vector<std::string> flags() const {
    std::vector<std::string> all = m_result.options.given;
    all.insert(all.end(), m_flags.begin(), m_flags.end());
    return all;
  }

 private:
  CameraFromResult& m_result;
  std::vector<std::string> m_flags;
  std::set<std::string> m_accounted;
};

// An integer field as the text the command line would give (the JSON's own digits, so a huge or negative
// value reaches the flag's parser, which judges it); none for a value that is no integer.
std::optional<std::string> integer_text(const json& object, const char* key) {
  if (!object.contains(key) || !object[key].is_number_integer()) return std::nullopt;
  return object[key].dump();
}

bool is_string(const json& object, const char* key) {
  return object.contains(key) && object[key].is_string();
}
bool is_number(const json& object, const char* key) {
  return object.contains(key) && object[key].is_number();
}
bool is_null(const json& object, const char* key) {
  return object.contains(key) && object[key].is_null();
}

// A file the shot named, as that shot saw it: a relative path is relative to the JSON's own folder.
std::string beside(const std::string& json_path, const std::string& named) {
  return named.front() == '/' ? named : parent_of(json_path) + "/" + named;
}

// A name longer than any path: not looked up, and shown only in part.
std::optional<std::string> too_long(const std::string& name) {
  if (name.size() <= kMaxPathBytes) return std::nullopt;
  return "a name of " + std::to_string(name.size()) + " bytes is no path";
}

// Why `path` cannot be read, in the input reader's own words; none when it can.
std::optional<std::string> unusable(const std::string& path) {
  try {
    check_input_path("", path);
    return std::nullopt;
  } catch (const UsageError& e) {
    return std::string(e.what());
  }
}

// The string at `key`, or none: no copy, since a hostile file's string may be as large as the file.
const std::string* text_at(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

void restore_scene(Restorer& r, const json& settings, const std::string& json_path) {
  const auto keys = {"settings.scene", "settings.scene_source"};
  const std::string* named = text_at(settings, "scene_source");
  if (!named) named = text_at(settings, "scene");
  if (!named || named->empty()) return r.missing("the scene", "the file names none", keys);
  // Presets stay presets; a file is looked for where the shot was taken.
  if (is_preset(*named)) return r.set("--scene", *named, "scene " + *named, keys);
  if (const auto why = too_long(*named)) return r.missing("the scene " + excerpt(*named), *why, keys);
  const std::string source = beside(json_path, *named);
  if (const auto why = unusable(source)) return r.missing("the scene " + source, *why, keys);
  r.set("--scene", source, "scene " + source, keys);
}

void restore_state(Restorer& r, const json& settings, const std::string& json_path) {
  if (const std::string* named = text_at(settings, "state_file"); named && !named->empty()) {
    // The state sets N and has no seed: the file's particles and seed describe it.
    const auto keys = {"settings.state_file", "settings.particles", "settings.seed"};
    if (const auto why = too_long(*named)) return r.missing("the initial state " + excerpt(*named), *why, keys);
    const std::string file = beside(json_path, *named);
    if (const auto why = unusable(file)) return r.missing("the initial state " + file, *why, keys);
    for (const char* flag : {"--particles", "--seed"})
      if (r.given(flag)) return r.missing("the initial state " + file, std::string(flag) + " was given", keys);
    r.set("--load-state", file, "state " + file, keys);
    return;
  }
  if (is_null(settings, "state_file")) r.account({"settings.state_file"});
  // The command line's --load-state sets N and the state: nothing of the file's to restore then.
  if (r.given("--load-state"))
    return r.missing("N and seed", "--load-state gives the state", {"settings.particles", "settings.seed"});
  if (const auto n = integer_text(settings, "particles")) r.set("--particles", *n, "N " + *n, {"settings.particles"});
  if (const auto seed = integer_text(settings, "seed")) r.set("--seed", *seed, "seed", {"settings.seed"});
  if (is_null(settings, "seed")) r.account({"settings.seed"});
}

void restore_draw(Restorer& r, const json& settings, const Options& options) {
  if (is_string(settings, "draw")) {
    std::string draw = settings["draw"].get<std::string>();
    // The splat needs CUDA-GL interop: where there is none, auto draws the same picture with points.
    if (draw == "splat" && (options.backend == BackendChoice::Cpu || options.no_interop ||
                            count_cuda_devices(nullptr) == 0)) {
      r.missing("draw splat", "no CUDA-GL interop in this run; auto draws points", {});
      draw = "auto";
    }
    r.set("--draw", draw, "draw " + draw, {"settings.draw"});
  }
  if (const auto limit = integer_text(settings, "draw_limit"))
    r.set("--draw-limit", *limit, "draw limit", {"settings.draw_limit"});
}

void restore_image(Restorer& r, const json& root, CameraFromResult& result) {
  if (!root.contains("image") || !root["image"].is_object()) return;
  const json& image = root["image"];
  const auto w = integer_text(image, "width"), h = integer_text(image, "height");
  if (w && h) {
    r.set("--width", *w, "size " + *w + "x" + *h, {"image.width"});
    r.set("--height", *h, "height", {"image.height"});
    result.restored.erase(std::remove(result.restored.begin(), result.restored.end(), "height"),
                          result.restored.end());
  } else if (image.contains("width") || image.contains("height")) {
    r.missing("the size", "its width and height are not both integers", {"image.width", "image.height"});
  }
  if (image.contains("panel_visible") && image["panel_visible"].is_boolean()) {
    if (image["panel_visible"] == false)
      r.set("--no-panel", "", "hidden panel", {"image.panel_visible"});
    else
      r.account({"image.panel_visible"});
  }
}

void restore_camera(Restorer& r, const json& root, bool is_clip) {
  if (!root.contains("camera") || !root["camera"].is_object())
    return r.missing("the camera", "the file has none: coalesce records it since schema coalesce-screenshot/3", {});
  const json& camera = root["camera"];
  const auto pose_keys = {"camera.yaw_degrees", "camera.pitch_degrees", "camera.distance", "camera.target"};
  if (!is_number(camera, "yaw_degrees") || !is_number(camera, "pitch_degrees") || !is_number(camera, "distance") ||
      !camera.contains("target") || !camera["target"].is_array() || camera["target"].size() != 3)
    return r.missing("the camera", "its yaw_degrees, pitch_degrees, distance or target (three numbers) is missing",
                     pose_keys);
  std::string pose = number_text(camera["yaw_degrees"]) + "," + number_text(camera["pitch_degrees"]) + "," +
                     number_text(camera["distance"]);
  for (const json& t : camera["target"]) {
    if (!t.is_number()) return r.missing("the camera", "its target is not three numbers", pose_keys);
    pose += "," + number_text(t);
  }
  r.set("--camera", pose, "camera", pose_keys);
  if (!is_number(camera, "orbit_degrees_per_second")) return;
  r.account({"camera.orbit_degrees_per_second"});
  if (camera["orbit_degrees_per_second"].get<double>() == 0.0) return;
  // A clip records its first frame's pose, so its orbit plays again; a screenshot's pose is where the orbit
  // had turned it, and the same picture needs the camera held there.
  if (is_clip)
    r.set("--orbit", number_text(camera["orbit_degrees_per_second"]), "orbit", {});
  else
    r.missing("the orbit", "a screenshot shows where it had turned the camera: held there", {});
}

// The rest of the settings: each one as the flag that sets it.
void restore_settings(Restorer& r, const json& settings) {
  // A shot without a precision (before issue 21) ran in fp32, the default: nothing to restore.
  // forces: the scheme that ran, named, so that an auto run's shot is taken again with the same one.
  for (const char* key : {"layout", "precision", "solver", "forces"}) {
    if (!is_string(settings, key)) continue;
    const std::string value = settings[key].get<std::string>();
    const std::string field = "settings." + std::string(key);
    r.set(std::string("--") + key, value, key + (" " + value), {field.c_str()});
  }
  if (is_null(settings, "forces")) r.account({"settings.forces"});  // attractors have no scheme
  if (is_number(settings, "theta"))
    r.set("--theta", number_text(settings["theta"]), "theta", {"settings.theta"});
  if (is_null(settings, "theta")) r.account({"settings.theta"});  // no tree ran
  if (is_number(settings, "dt")) r.set("--dt", number_text(settings["dt"]), "dt", {"settings.dt"});
  if (is_number(settings, "softening"))
    r.set("--softening", number_text(settings["softening"]), "softening", {"settings.softening"});
  if (is_string(settings, "pack_variant"))
    r.set("--pack", settings["pack_variant"].get<std::string>(), "pack variant", {"settings.pack_variant"});
  if (is_number(settings, "brightness"))
    r.set("--brightness", number_text(settings["brightness"]), "brightness", {"settings.brightness"});
  if (settings.contains("paused") && settings["paused"].is_boolean()) {
    if (settings["paused"] == true)
      r.missing("the pause", "the shot was paused; press Space", {"settings.paused"});
    else
      r.account({"settings.paused"});
  }
}

// The backend is this machine's choice, not the shot's: named so the user can give it.
void name_backend(Restorer& r, const json& root) {
  if (!is_string(root, "backend") || r.given("--backend")) return;
  const std::string name = root["backend"].get<std::string>();
  const std::string choice = excerpt(name.substr(0, name.find(' ')));
  r.missing("backend " + choice, "give --backend " + choice + " to choose it", {});
}

JsonSource source_of(const Options& options) {
  return {"--camera-from", options.camera_from, "give the .json written beside a --screenshot or --record"};
}

// What the file's kept values `root` restore into `options`.
CameraFromResult restore(const Options& options, const JsonSource& source, const json& root) {
  CameraFromResult result{options, {}, {}, {}};
  const std::string& path = options.camera_from;
  if (!root.is_object()) source.fail("is JSON but not an object");
  const std::string schema = is_string(root, "schema") ? root["schema"].get<std::string>() : std::string();
  const bool is_clip = schema.rfind(kClipSchemaPrefix, 0) == 0;
  if (schema.rfind(kScreenshotSchemaPrefix, 0) != 0 && !is_clip)
    source.fail("is not a coalesce screenshot or clip JSON (schema '" + excerpt(schema) + "')");
  refuse_newer_schema(source, schema, is_clip ? kClipSchema : kScreenshotSchema);
  if (!root.contains("settings") || !root["settings"].is_object()) source.fail("has no settings block");
  const json& settings = root["settings"];

  Restorer r(result);
  r.account({"settings.attractors"});  // they come with the scene
  restore_scene(r, settings, path);
  restore_state(r, settings, path);
  restore_settings(r, settings);
  restore_draw(r, settings, result.options);
  restore_image(r, root, result);
  restore_camera(r, root, is_clip);
  name_backend(r, root);
  if (root.contains("simulation") && root["simulation"].is_object()) {
    if (const auto step = integer_text(root["simulation"], "step")) {
      r.account({"simulation.step"});
      if (*step != "0")
        r.missing("the simulated time", "the shot shows step " + *step + "; a run shows step N after --frames N", {});
    }
  }
  r.list_the_rest(root);
  // What the file set must still make sense with what the command line says.
  try {
    check_combinations(result.options, r.flags());
  } catch (const UsageError& e) {
    source.fail(std::string("with its settings, ") + e.what(), "");
  }
  return result;
}

}  // namespace

CameraFromResult apply_camera_from(const Options& options) {
  const JsonSource source = source_of(options);
  return restore(options, source, read_json_input(source, kMaxReportJsonBytes, {is_read, nullptr}));
}

CameraFromResult apply_camera_from_bytes(const Options& options, std::string_view bytes) {
  const JsonSource source = source_of(options);
  return restore(options, source, parse_json_input(source, bytes, {is_read, nullptr}));
}

std::string describe(const CameraFromResult& result, const std::string& path) {
  const auto join = [](const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
  };
  std::string line = "--camera-from " + path + ": restored " + (result.restored.empty() ? "nothing" : join(result.restored));
  if (!result.kept.empty()) line += "; the command line's " + join(result.kept) + " kept";
  if (!result.not_restored.empty()) line += "; not restored: " + join(result.not_restored);
  return printable(line);
}

}  // namespace coalesce
