// --camera-from (see camera_from.h). Every value goes through the option table's own parser, so a file
// can set nothing the command line could not, with the same ranges.
#include "app/camera_from.h"

#include <sys/stat.h>

#include <algorithm>
#include <optional>
#include <cstdio>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/cli_table.h"
#include "app/cuda_services.h"
#include "app/printable.h"
#include "sim/errors.h"
#include "sim/input_file.h"
#include "sim/scene.h"

namespace coalesce {
namespace {

using nlohmann::json;

constexpr std::uint64_t kMaxJsonBytes = 256ull << 20;  // an hour-long clip's per-frame numbers fit

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

  // Applies `flag value` as the command line would; `what` names it in the summary.
  void set(std::string_view flag, const std::string& value, const std::string& what) {
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
      m_result.not_restored.push_back(what + " (" + e.what() + ")");
    }
  }

  void missing(const std::string& what, const std::string& why) {
    m_result.not_restored.push_back(what + " (" + why + ")");
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

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void restore_scene(Restorer& r, const json& settings) {
  const std::string source = is_string(settings, "scene_source") ? settings["scene_source"].get<std::string>()
                             : is_string(settings, "scene")      ? settings["scene"].get<std::string>()
                                                                 : std::string();
  if (source.empty()) return r.missing("the scene", "the file names none");
  if (!is_preset(source) && !file_exists(source))
    return r.missing("the scene '" + source + "'", "neither a preset nor a file here");
  r.set("--scene", source, "scene " + source);
}

void restore_state(Restorer& r, const json& settings) {
  if (is_string(settings, "state_file")) {
    const std::string file = settings["state_file"].get<std::string>();
    if (!file_exists(file)) return r.missing("the initial state " + file, "no such file here");
    for (const char* flag : {"--particles", "--seed"})
      if (r.given(flag)) return r.missing("the initial state " + file, std::string(flag) + " was given");
    r.set("--load-state", file, "state " + file);
    return;
  }
  // The command line's --load-state sets N and the state: nothing of the file's to restore then.
  if (r.given("--load-state")) return r.missing("N and seed", "--load-state gives the state");
  if (const auto n = integer_text(settings, "particles"))
    r.set("--particles", *n, "N " + *n);
  else if (settings.contains("particles"))
    r.missing("N", "not an integer in the file");
  if (const auto seed = integer_text(settings, "seed")) r.set("--seed", *seed, "seed");
}

void restore_draw(Restorer& r, const json& settings, const Options& options) {
  if (!is_string(settings, "draw")) return;
  std::string draw = settings["draw"].get<std::string>();
  // The splat needs CUDA-GL interop: where there is none, auto draws the same picture with points.
  if (draw == "splat" && (options.backend == BackendChoice::Cpu || options.no_interop ||
                          count_cuda_devices(nullptr) == 0)) {
    r.missing("draw splat", "no CUDA-GL interop in this run; auto draws points");
    draw = "auto";
  }
  r.set("--draw", draw, "draw " + draw);
  if (const auto limit = integer_text(settings, "draw_limit")) r.set("--draw-limit", *limit, "draw limit");
}

void restore_camera(Restorer& r, const json& root, bool is_clip) {
  if (!root.contains("camera") || !root["camera"].is_object())
    return r.missing("the camera", "the file has none: coalesce records it since schema coalesce-screenshot/3");
  const json& camera = root["camera"];
  if (!is_number(camera, "yaw_degrees") || !is_number(camera, "pitch_degrees") || !is_number(camera, "distance") ||
      !camera.contains("target") || !camera["target"].is_array() || camera["target"].size() != 3)
    return r.missing("the camera", "its yaw_degrees, pitch_degrees, distance or target is missing");
  std::string pose = number_text(camera["yaw_degrees"]) + "," + number_text(camera["pitch_degrees"]) + "," +
                     number_text(camera["distance"]);
  for (const json& t : camera["target"]) {
    if (!t.is_number()) return r.missing("the camera", "its target is not three numbers");
    pose += "," + number_text(t);
  }
  r.set("--camera", pose, "camera");
  if (!is_number(camera, "orbit_degrees_per_second") || camera["orbit_degrees_per_second"].get<double>() == 0.0)
    return;
  // A clip records its first frame's pose, so its orbit plays again; a screenshot's pose is where the orbit
  // had turned it, and the same picture needs the camera held there.
  if (is_clip)
    r.set("--orbit", number_text(camera["orbit_degrees_per_second"]), "orbit");
  else
    r.missing("the orbit", "a screenshot shows where it had turned the camera: held there");
}

}  // namespace

CameraFromResult apply_camera_from(const Options& options) {
  CameraFromResult result{options, {}, {}, {}};
  const std::string& path = options.camera_from;
  const std::string where = "--camera-from " + path;
  const json root = json::parse(read_text_file("--camera-from", path, kMaxJsonBytes), nullptr, false);
  if (root.is_discarded() || !root.is_object())
    throw UsageError(where + ": not JSON (give the .json coalesce writes beside a --screenshot or --record)");
  const std::string schema = is_string(root, "schema") ? root["schema"].get<std::string>() : std::string();
  if (schema.rfind("coalesce-screenshot/", 0) != 0 && schema.rfind("coalesce-clip/", 0) != 0)
    throw UsageError(where + ": not a coalesce screenshot or clip JSON (schema '" + schema +
                     "'); give the .json written beside a --screenshot or --record");
  if (!root.contains("settings") || !root["settings"].is_object())
    throw UsageError(where + ": it has no settings block; give the .json written beside a --screenshot or --record");
  const json& settings = root["settings"];

  Restorer r(result);
  restore_scene(r, settings);
  restore_state(r, settings);
  for (const char* key : {"layout", "solver"})
    if (is_string(settings, key))
      r.set(std::string("--") + key, settings[key].get<std::string>(), key + (" " + settings[key].get<std::string>()));
  for (const char* key : {"dt", "softening"})
    if (is_number(settings, key)) r.set(std::string("--") + key, number_text(settings[key]), key);
  if (is_string(settings, "pack_variant")) r.set("--pack", settings["pack_variant"].get<std::string>(), "pack variant");
  restore_draw(r, settings, result.options);
  if (is_number(settings, "brightness")) r.set("--brightness", number_text(settings["brightness"]), "brightness");
  if (root.contains("image") && root["image"].is_object()) {
    const json& image = root["image"];
    const auto w = integer_text(image, "width"), h = integer_text(image, "height");
    if (w && h) {
      r.set("--width", *w, "size " + *w + "x" + *h);
      r.set("--height", *h, "height");
      result.restored.erase(std::remove(result.restored.begin(), result.restored.end(), "height"),
                            result.restored.end());
    }
    if (image.contains("panel_visible") && image["panel_visible"] == false) r.set("--no-panel", "", "hidden panel");
  }
  restore_camera(r, root, schema.rfind("coalesce-clip/", 0) == 0);
  if (settings.contains("paused") && settings["paused"] == true)
    r.missing("the pause", "the shot was paused; press Space");
  if (root.contains("simulation") && root["simulation"].is_object()) {
    const auto step = integer_text(root["simulation"], "step");
    if (step && *step != "0")
      r.missing("the simulated time", "the shot shows step " + *step + "; a run shows step N after --frames N");
  }
  // What the file set must still make sense with what the command line says.
  try {
    check_combinations(result.options, r.flags());
  } catch (const UsageError& e) {
    throw UsageError(where + ": with its settings, " + e.what());
  }
  return result;
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
