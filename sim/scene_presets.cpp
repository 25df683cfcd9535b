// The built-in scenes: names, defaults per preset, and validation shared with scene files.
#include <cmath>
#include <stdexcept>
#include <string>

#include "sim/force_method.h"
#include "sim/scene.h"
#include "sim/unit_text.h"

namespace coalesce {

namespace {

struct PresetEntry {
  const char* name;
  InitialConditions initial;
};

constexpr PresetEntry kPresets[] = {{"plummer", InitialConditions::Plummer},
                                    {"galaxies", InitialConditions::CollidingDisks},
                                    {"disk", InitialConditions::RotatingDisk},
                                    {"cube", InitialConditions::UniformCube},
                                    {"swirl", InitialConditions::AttractorSwirl}};

// Swirl: a fixed central mass plus three smaller attractors on Keplerian circles around it.
AttractorSet swirl_attractors() {
  AttractorSet set{};
  set.count = 4;
  set.items[0] = {{0.0, 0.0, 0.0}, 1.0, 0.0, 0.0, 0.0};
  const double radii[3] = {0.55, 0.9, 1.3};
  const double masses[3] = {0.12, 0.08, 0.06};
  for (int k = 0; k < 3; ++k) {
    const double r = radii[k];
    set.items[k + 1] = {
        {0.0, 0.0, 0.04 * (k - 1)}, masses[k], r, std::sqrt(1.0 / (r * r * r)), 2.0943951 * k};
  }
  return set;
}

// A preset's units from their texts, so the text shown and the value used are one fact.
PhysicalUnits preset_units(const char* length, const char* mass) {
  const std::optional<PhysicalUnits> units = physical_units(length, mass);
  if (!units) throw std::logic_error(std::string("preset units do not parse: ") + length + ", " + mass);
  return *units;
}

void require(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

}  // namespace

const char* to_string(InitialConditions initial) {
  for (const PresetEntry& p : kPresets)
    if (p.initial == initial) return p.name;
  return "?";
}

bool parse_initial_conditions(const std::string& text, InitialConditions& out) {
  for (const PresetEntry& p : kPresets) {
    if (text == p.name) {
      out = p.initial;
      return true;
    }
  }
  return false;
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  for (const PresetEntry& p : kPresets) names.emplace_back(p.name);
  return names;
}

bool is_preset(const std::string& name) {
  InitialConditions ignored;
  return parse_initial_conditions(name, ignored);
}

Scene preset_scene(const std::string& name) {
  Scene s;
  if (!parse_initial_conditions(name, s.initial))
    throw std::invalid_argument("unknown scene preset '" + name +
                                "'; expected one of plummer, galaxies, disk, cube, swirl");
  s.name = name;
  s.method = ForceMethod::OneSidedAllPairs;
  switch (s.initial) {
    case InitialConditions::Plummer:  // Plummer radius 1, M = 1: crossing time ~ 1
      s.particles = 16384;
      s.params.dt = 2e-3;
      s.params.softening = 0.05;
      // A globular cluster: Plummer radius 1 pc and 1e5 Msun, its stars moving at ~10 km/s.
      s.units = preset_units("1 pc", "1e5 Msun");
      break;
    case InitialConditions::CollidingDisks:  // two disks of radius 1, each around a central mass of 1
      s.particles = 32768;
      s.central_mass = 1.0f;
      s.params.dt = 2e-3;
      s.params.softening = 0.04;
      // Milky-Way-like disks: radius 10 kpc (scale length 3.3 kpc), 1.5e11 Msun each, ~250 km/s at the edge.
      s.units = preset_units("10 kpc", "1e11 Msun");
      break;
    case InitialConditions::RotatingDisk:  // a light self-gravitating disk around a heavy centre
      s.particles = 16384;
      s.central_mass = 1.0f;
      s.total_mass = 0.2f;
      s.params.dt = 2e-3;
      s.params.softening = 0.03;
      // A massive protoplanetary disk: 0.2 Msun out to 100 au around a Sun, its edge orbiting in ~900 years.
      s.units = preset_units("100 au", "1 Msun");
      break;
    case InitialConditions::UniformCube:  // cold collapse of a uniform cube of half-width 1
      s.particles = 16384;
      s.params.dt = 2e-3;
      s.params.softening = 0.05;
      // A cold proto-cluster, as the Plummer sphere's: half-width 1 pc, 1e5 Msun, free fall in ~0.07 Myr.
      s.units = preset_units("1 pc", "1e5 Msun");
      break;
    case InitialConditions::AttractorSwirl:  // memory-bound: particles do not interact, so N can be large
      s.particles = 1 << 20;
      s.method = ForceMethod::Attractors;
      s.params.dt = 2e-3;
      s.params.softening = 0.1;
      s.params.attractors = swirl_attractors();
      // No units: a toy force field, not a physical system.
      break;
  }
  return s;
}

std::string use_solver(Scene& scene, ForceMethod family) {
  scene.method = family_of(family);
  if (method_info(family).physics != Physics::Attractors || scene.params.attractors.count > 0) return {};
  scene.params.attractors = swirl_attractors();
  return "scene '" + scene.name + "' has no attractors, so the attractors solver uses the swirl preset's " +
         std::to_string(scene.params.attractors.count) +
         " (a scene file's [[attractors]] tables choose others)";
}

void validate_scene(const Scene& s) {
  // A float is shown with a float's digits, a double with a double's: the value the range refused.
  const auto in = [](const auto& range, auto v, const std::string& what) {
    require(range.contains(v), what + " is " + exact_text(v) + "; expected " + describe(range));
  };
  require(
      s.particles > 0 && s.particles <= kMaxParticles,
      "particles is " + std::to_string(s.particles) + "; expected " + describe_integers(1, kMaxParticles));
  in(kTimeStepRange, s.params.dt, "dt");
  in(kSofteningRange, s.params.softening, "softening");
  in(kLengthRange, s.scale, "scale");
  in(kTotalMassRange, s.total_mass, "total_mass");
  in(kMassRange, s.central_mass, "central_mass");
  const AttractorSet& a = s.params.attractors;
  require(a.count >= 0 && a.count <= kMaxAttractors,
          "at most " + std::to_string(kMaxAttractors) + " attractors, got " + std::to_string(a.count));
  require(method_info(s.method).physics != Physics::Attractors || a.count >= 1,
          "the attractors solver needs at least one attractor");
  for (int k = 0; k < a.count; ++k) {
    const Attractor& t = a.items[k];
    const std::string name = "attractor " + std::to_string(k + 1);
    for (double c : {t.center.x, t.center.y, t.center.z}) in(kCoordinateRange, c, name + " center");
    in(kMassRange, t.mass, name + " mass");
    in(kOrbitRadiusRange, t.orbit_radius, name + " orbit_radius");
    in(kCoordinateRange, t.angular_speed, name + " angular_speed");
    in(kCoordinateRange, t.phase, name + " phase");
  }
}

}  // namespace coalesce
