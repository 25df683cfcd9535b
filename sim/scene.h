// Scenes: a solver, N, dt, softening, a seed and the initial conditions. Built-in presets and TOML files
// in the same format (assets/scenes/). The same seed gives the same initial state on every backend.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/errors.h"
#include "sim/force_method.h"
#include "sim/limits.h"
#include "sim/particle.h"
#include "sim/sim_params.h"
#include "sim/units.h"

namespace coalesce {

enum class InitialConditions { Plummer, CollidingDisks, RotatingDisk, UniformCube, AttractorSwirl };

struct Scene {
  std::string name;
  InitialConditions initial = InitialConditions::Plummer;
  int particles = 16384;
  std::uint64_t seed = 1;
  float scale = 1.0f;         // characteristic radius or half-width
  float total_mass = 1.0f;    // of the particles (attractors and central masses not included)
  float central_mass = 0.0f;  // rotating disk and galaxies: the mass at each centre
  SimParams params;           // dt, softening, attractors
  // The scene's solver family (its first row) until a run picks a row of it: --forces, or auto's measurement.
  ForceMethod method = ForceMethod::OneSidedAllPairs;
  // What one N-body length and mass unit are (G = 1 derives velocity and time); none: plain N-body units.
  std::optional<PhysicalUnits> units;
};

// Switches the scene's solver family to `family`'s (its first row). A scene with no attractors borrows the
// swirl preset's set for the attractors method (the panel and --solver do the same); the returned notice
// says so, else it is empty.
std::string use_solver(Scene& scene, ForceMethod family);

// Thrown for a malformed scene file; what() is one line: "FILE:LINE: what was wrong; what was expected".
// A bad scene file is bad input (exit 2).
class SceneError : public UsageError {
 public:
  using UsageError::UsageError;
};

// A scene is a few hundred bytes; anything past this is not one (and is not read).
constexpr std::uint64_t kMaxSceneFileBytes = 1 << 20;

std::vector<std::string> preset_names();  // "plummer", "galaxies", "disk", "cube", "swirl"
bool is_preset(const std::string& name);
Scene preset_scene(const std::string& name);  // throws std::invalid_argument for an unknown name
// Reads a regular file of at most kMaxSceneFileBytes (InputFile), then parse_scene. Throws UsageError.
Scene load_scene_file(const std::string& path);
// The TOML text of a scene file; `path` names it in messages. Throws SceneError.
Scene parse_scene(const std::string& content, const std::string& path);

// Deterministic from scene.seed and scene.particles, independent of layout and backend. Validates the
// scene first (std::invalid_argument). Central masses are particles (index 0 of each disk).
std::vector<Particle> generate_initial_state(const Scene& scene);

// Scene-file spellings of the initial conditions: plummer|galaxies|disk|cube|swirl (the preset names).
const char* to_string(InitialConditions initial);
bool parse_initial_conditions(const std::string& text, InitialConditions& out);

// Throws std::invalid_argument naming the first bad field (N <= 0, dt <= 0, softening <= 0, ...).
void validate_scene(const Scene& scene);

}  // namespace coalesce
