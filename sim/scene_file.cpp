// load_scene_file: TOML scene files over a preset's defaults, every error one "FILE:LINE: ..." line.
#include <toml++/toml.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>

#include "sim/force_method.h"
#include "sim/input_file.h"
#include "sim/scene.h"
#include "sim/unit_text.h"

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

  // A number in `range` (integers accepted), in the range's type; `note` adds what it means ("0: fixed").
  double number(const toml::node& node, const std::string& key, const DoubleRange& range,
                const std::string& note = "") const {
    return checked(node, key, range, note);
  }
  float number(const toml::node& node, const std::string& key, const FloatRange& range,
               const std::string& note = "") const {
    return static_cast<float>(checked(node, key, range, note));
  }

  Attractor attractor(const toml::node& node, int index) const {
    const std::string where = "attractors[" + std::to_string(index) + "]";
    const toml::table* t = node.as_table();
    if (!t) fail(&node, "'" + where + "' must be a table; expected [[attractors]] with center, mass, ...");
    Attractor a{{0, 0, 0}, 1.0, 0.0, 0.0, 0.0};
    for (const auto& [k, value] : *t) {
      const std::string key(k.str());
      const std::string name = where + "." + key;
      if (key == "center") {
        const toml::array* arr = value.as_array();
        if (!arr || arr->size() != 3)
          fail(&value, "'" + name + "' must be an array of 3 numbers; expected [x, y, z]");
        a.center = {number((*arr)[0], name, kCoordinateRange), number((*arr)[1], name, kCoordinateRange),
                    number((*arr)[2], name, kCoordinateRange)};
      } else if (key == "mass") {
        a.mass = number(value, name, kMassRange);
      } else if (key == "orbit_radius") {
        a.orbit_radius = number(value, name, kOrbitRadiusRange, "0: fixed");
      } else if (key == "angular_speed") {
        a.angular_speed = number(value, name, kCoordinateRange, "radians per unit time");
      } else if (key == "phase") {
        a.phase = number(value, name, kCoordinateRange, "radians");
      } else {
        fail(&value,
             "unknown key '" + name + "'; expected center, mass, orbit_radius, angular_speed or phase");
      }
    }
    return a;
  }

  // [units]: length and mass, both or neither (an empty table: plain N-body units). Velocity and time are
  // never given: G = 1 derives them, and a second source for them could only disagree.
  std::optional<PhysicalUnits> units(const toml::node& node) const {
    const toml::table* t = node.as_table();
    if (!t)
      fail(&node,
           "'units' must be a table; expected [units] with length = \"1 kpc\" and mass = \"1e10 Msun\"");
    const toml::node* length = nullptr;
    const toml::node* mass = nullptr;
    for (const auto& [k, value] : *t) {
      const std::string key(k.str());
      if (key == "length") {
        length = &value;
      } else if (key == "mass") {
        mass = &value;
      } else if (key == "velocity" || key == "time") {
        fail(&value,
             "'units." + key +
                 "' cannot be given: it follows from G = 1 and the length and mass units (v = sqrt(G M / L), "
                 "t = L / v); expected only length and mass");
      } else {
        fail(&value, "unknown key 'units." + key + "'; expected length and mass");
      }
    }
    if (!length && !mass) return std::nullopt;
    if (!length || !mass)
      fail(&node, std::string("[units] has ") + (length ? "length but no mass" : "mass but no length") +
                      "; expected both length and mass, or neither");
    const std::string length_text = string(*length, "units.length", length_words());
    if (!length_in_cm(length_text))
      fail(length, "'units.length' is \"" + length_text + "\"; expected " + length_words());
    const std::string mass_text = string(*mass, "units.mass", mass_words());
    if (!mass_in_g(mass_text)) fail(mass, "'units.mass' is \"" + mass_text + "\"; expected " + mass_words());
    const std::optional<PhysicalUnits> out = physical_units(length_text, mass_text);
    if (!out)
      fail(&node,
           "[units] length \"" + length_text + "\" and mass \"" + mass_text +
               "\" give no finite velocity or time unit under G = 1; expected a mass and a length of less "
               "extreme ratio");
    return out;
  }

 private:
  static std::string range(std::int64_t lo, std::int64_t hi) { return describe_integers(lo, hi); }

  template <class Range>
  double checked(const toml::node& node, const std::string& key, const Range& range,
                 const std::string& note) const {
    const std::string expected = describe(range) + (note.empty() ? "" : " (" + note + ")");
    if (!node.is_number()) fail(&node, "'" + key + "' must be a number; expected " + expected);
    const double v = *node.value<double>();
    if (!range.contains(v)) fail(&node, "'" + key + "' is " + exact_text(v) + "; expected " + expected);
    return v;
  }

  std::string m_path;
};

}  // namespace

Scene load_scene_file(const std::string& path) {
  return parse_scene(read_text_file("", path, kMaxSceneFileBytes), path);
}

Scene parse_scene(const std::string& content, const std::string& path) {
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

  const toml::node* solver_node = nullptr;
  const toml::node* attractors_node = nullptr;
  for (const auto& [k, value] : root) {
    const std::string key(k.str());
    if (key == "initial") continue;
    if (key == "name") {
      s.name = r.string(value, key, "a string");
    } else if (key == "solver") {
      solver_node = &value;
      const auto solver = parse_solver_family(r.string(value, key, solver_family_words()));
      if (!solver)
        r.fail(&value,
               "unknown solver '" + *value.value<std::string>() + "'; expected " + solver_family_words());
      s.method = *solver;
    } else if (key == "particles") {
      s.particles = static_cast<int>(r.integer(value, key, 1, kMaxParticles));
    } else if (key == "seed") {
      s.seed = static_cast<std::uint64_t>(r.integer(value, key, 0, INT64_MAX));
    } else if (key == "dt") {
      s.params.dt = r.number(value, key, kTimeStepRange);
    } else if (key == "softening") {
      s.params.softening = r.number(value, key, kSofteningRange);
    } else if (key == "scale") {
      s.scale = r.number(value, key, kLengthRange);
    } else if (key == "total_mass") {
      s.total_mass = r.number(value, key, kTotalMassRange);
    } else if (key == "central_mass") {
      s.central_mass = static_cast<float>(r.number(value, key, kMassRange));  // a particle of the float state
    } else if (key == "units") {
      s.units = r.units(value);
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
                 "central_mass, [units] or [[attractors]]");
    }
  }
  if (method_info(s.method).physics == Physics::Attractors && s.params.attractors.count == 0)
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
