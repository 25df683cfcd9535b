// load_scene_file: TOML scene files over a preset's defaults, every error one "FILE:LINE: ..." line.
#include <toml++/toml.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/scene.h"

namespace coalesce {

namespace {

class FileReader {
 public:
  explicit FileReader(std::string path) : m_path(std::move(path)) {}

  [[noreturn]] void fail(const toml::node* node, const std::string& message) const {
    const int line = node ? static_cast<int>(node->source().begin.line) : 1;
    throw SceneError(m_path + ":" + std::to_string(line > 0 ? line : 1) + ": " + message);
  }

  std::string string(const toml::node& node, const std::string& key, const std::string& expected) const {
    if (const auto v = node.value<std::string>()) return *v;
    fail(&node, "'" + key + "' must be a string; expected " + expected);
  }

  std::int64_t integer(const toml::node& node, const std::string& key, std::int64_t lo,
                       std::int64_t hi) const {
    const auto* v = node.as_integer();
    if (!v) fail(&node, "'" + key + "' must be an integer; expected " + range(lo, hi));
    if (v->get() < lo || v->get() > hi)
      fail(&node, "'" + key + "' is " + std::to_string(v->get()) + "; expected " + range(lo, hi));
    return v->get();
  }

  // A float (integers accepted) satisfying `ok`, described by `expected` ("a number > 0").
  template <class Ok>
  float number(const toml::node& node, const std::string& key, Ok ok, const std::string& expected) const {
    if (!node.is_number()) fail(&node, "'" + key + "' must be a number; expected " + expected);
    const double v = *node.value<double>();
    if (!std::isfinite(v) || !ok(v) || std::abs(v) > 3.0e38)
      fail(&node, "'" + key + "' is " + toml_text(node) + "; expected " + expected);
    return static_cast<float>(v);
  }

  Attractor attractor(const toml::node& node, int index) const {
    const std::string where = "attractors[" + std::to_string(index) + "]";
    const toml::table* t = node.as_table();
    if (!t) fail(&node, "'" + where + "' must be a table; expected [[attractors]] with center, mass, ...");
    Attractor a{{0, 0, 0}, 1.0f, 0.0f, 0.0f, 0.0f};
    auto any = [](double) { return true; };
    auto non_negative = [](double v) { return v >= 0; };
    for (const auto& [k, value] : *t) {
      const std::string key(k.str());
      const std::string name = where + "." + key;
      if (key == "center") {
        const toml::array* arr = value.as_array();
        if (!arr || arr->size() != 3)
          fail(&value, "'" + name + "' must be an array of 3 numbers; expected [x, y, z]");
        a.center = {number((*arr)[0], name, any, "a number"), number((*arr)[1], name, any, "a number"),
                    number((*arr)[2], name, any, "a number")};
      } else if (key == "mass") {
        a.mass = number(value, name, non_negative, "a number >= 0");
      } else if (key == "orbit_radius") {
        a.orbit_radius = number(value, name, non_negative, "a number >= 0 (0: fixed)");
      } else if (key == "angular_speed") {
        a.angular_speed = number(value, name, any, "a number (radians per unit time)");
      } else if (key == "phase") {
        a.phase = number(value, name, any, "a number (radians)");
      } else {
        fail(&value,
             "unknown key '" + name + "'; expected center, mass, orbit_radius, angular_speed or phase");
      }
    }
    return a;
  }

 private:
  static std::string range(std::int64_t lo, std::int64_t hi) {
    return "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
  }
  static std::string toml_text(const toml::node& node) {
    std::ostringstream os;
    os << node.value<double>().value_or(0.0);
    return os.str();
  }

  std::string m_path;
};

}  // namespace

Scene load_scene_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in || std::filesystem::is_directory(path))
    throw SceneError(path + ": cannot open scene file (" +
                     (std::filesystem::exists(path) ? "not a readable file" : "no such file") +
                     "); expected a TOML scene, see docs/scenes.md");
  std::ostringstream text;
  text << in.rdbuf();
  const std::string content = text.str();

  toml::table root;
  try {
    root = toml::parse(content, path);
  } catch (const toml::parse_error& e) {
    throw SceneError(path + ":" + std::to_string(e.source().begin.line) + ": TOML syntax error: " +
                     std::string(e.description()) + "; expected valid TOML (see docs/scenes.md)");
  }
  const FileReader r(path);

  // `initial` picks the preset whose values fill every omitted key.
  std::string initial = "plummer";
  if (const toml::node* node = root.get("initial")) {
    initial = r.string(*node, "initial", "one of plummer, galaxies, disk, cube, swirl");
    if (!is_preset(initial))
      r.fail(node, "unknown initial '" + initial + "'; expected one of plummer, galaxies, disk, cube, swirl");
  }
  Scene s = preset_scene(initial);
  s.name = std::filesystem::path(path).stem().string();

  auto positive = [](double v) { return v > 0; };
  auto non_negative = [](double v) { return v >= 0; };
  const toml::node* solver_node = nullptr;
  const toml::node* attractors_node = nullptr;
  for (const auto& [k, value] : root) {
    const std::string key(k.str());
    if (key == "initial") continue;
    if (key == "name") {
      s.name = r.string(value, key, "a string");
    } else if (key == "solver") {
      solver_node = &value;
      const auto solver = parse_solver(r.string(value, key, "all-pairs or attractors"));
      if (!solver)
        r.fail(&value,
               "unknown solver '" + *value.value<std::string>() + "'; expected all-pairs or attractors");
      s.params.solver = *solver;
    } else if (key == "particles") {
      s.particles = static_cast<int>(r.integer(value, key, 1, kMaxSceneParticles));
    } else if (key == "seed") {
      s.seed = static_cast<std::uint64_t>(r.integer(value, key, 0, INT64_MAX));
    } else if (key == "dt") {
      s.params.dt = r.number(value, key, positive, "a number > 0");
    } else if (key == "softening") {
      s.params.softening = r.number(value, key, positive, "a number > 0");
    } else if (key == "scale") {
      s.scale = r.number(value, key, positive, "a number > 0");
    } else if (key == "total_mass") {
      s.total_mass = r.number(value, key, positive, "a number > 0");
    } else if (key == "central_mass") {
      s.central_mass = r.number(value, key, non_negative, "a number >= 0");
    } else if (key == "attractors") {
      attractors_node = &value;
      const toml::array* arr = value.as_array();
      if (!arr) r.fail(&value, "'attractors' must be an array of tables; expected [[attractors]] sections");
      if (arr->size() > static_cast<std::size_t>(kMaxAttractors))
        r.fail(&value, std::to_string(arr->size()) + " attractors; expected at most " +
                           std::to_string(kMaxAttractors));
      s.params.attractors = AttractorSet{};
      for (std::size_t i = 0; i < arr->size(); ++i)
        s.params.attractors.items[i] = r.attractor((*arr)[i], static_cast<int>(i) + 1);
      s.params.attractors.count = static_cast<int>(arr->size());
    } else {
      r.fail(&value,
             "unknown key '" + key +
                 "'; expected name, initial, solver, particles, dt, softening, seed, scale, total_mass, "
                 "central_mass or [[attractors]]");
    }
  }
  if (s.params.solver == Solver::Attractors && s.params.attractors.count == 0)
    r.fail(attractors_node ? attractors_node : solver_node,
           "the attractors solver has no attractors; expected at least one [[attractors]] table");
  try {
    validate_scene(s);
  } catch (const std::invalid_argument& e) {
    r.fail(nullptr, std::string(e.what()));
  }
  return s;
}

}  // namespace coalesce
