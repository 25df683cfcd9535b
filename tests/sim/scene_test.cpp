// Presets and initial conditions: determinism, finiteness, requested N, zero momentum, central masses.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "sim/diagnostics.h"
#include "sim/scene.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

bool all_finite(const std::vector<Particle>& ps) {
  for (const Particle& p : ps)
    for (const float* f = &p.x; f != &p.x + kFieldsPerParticle; ++f)
      if (!std::isfinite(*f)) return false;
  return true;
}

TEST(Scene, PresetsAreListedAndKnown) {
  EXPECT_EQ(preset_names(), (std::vector<std::string>{"plummer", "galaxies", "disk", "cube", "swirl"}));
  for (const std::string& name : preset_names()) {
    EXPECT_TRUE(is_preset(name));
    const Scene s = preset_scene(name);
    EXPECT_EQ(s.name, name);
    EXPECT_EQ(to_string(s.initial), name);
    EXPECT_NO_THROW(validate_scene(s)) << name;
  }
  EXPECT_FALSE(is_preset("galaxy"));
  EXPECT_THROW(preset_scene("galaxy"), std::invalid_argument);
  EXPECT_EQ(preset_scene("swirl").method, ForceMethod::Attractors);
  EXPECT_GE(preset_scene("swirl").params.attractors.count, 3);
  EXPECT_GE(preset_scene("swirl").particles, 1 << 20);
}

TEST(Scene, EveryPresetGeneratesAFiniteStateOfTheRequestedSize) {
  testing::TestRng rng;
  for (const std::string& name : preset_names()) {
    for (int n : {1, 2, 3, rng.uniform_int(4, 3000)}) {
      Scene s = preset_scene(name);
      s.particles = n;
      s.seed = rng.engine()();
      const auto state = generate_initial_state(s);
      ASSERT_EQ(state.size(), static_cast<std::size_t>(n)) << name;
      EXPECT_TRUE(all_finite(state)) << name << " N=" << n;
      for (const Particle& p : state) EXPECT_GT(p.mass, 0.0f) << name;
    }
  }
}

TEST(Scene, SameSeedSameStateDifferentSeedDifferentState) {
  testing::TestRng rng;
  for (const std::string& name : preset_names()) {
    Scene s = preset_scene(name);
    s.particles = rng.uniform_int(10, 2000);
    s.seed = rng.engine()();
    const auto a = generate_initial_state(s);
    EXPECT_TRUE(testing::bitwise_equal(generate_initial_state(s), a)) << name;
    s.seed += 1;
    EXPECT_FALSE(testing::bitwise_equal(generate_initial_state(s), a)) << name;
  }
}

TEST(Scene, SelfGravitatingScenesHaveZeroMomentum) {
  testing::TestRng rng;
  for (const char* name : {"plummer", "galaxies", "disk", "cube"}) {
    Scene s = preset_scene(name);
    s.particles = rng.uniform_int(100, 3000);
    s.seed = rng.engine()();
    const auto state = generate_initial_state(s);
    const Diagnostics d = compute_diagnostics(state, method_info(s.method).physics, s.params, 0.0);
    double scale = 0;  // sum m |v|: what momentum is small relative to
    for (const Particle& p : state) scale += p.mass * std::sqrt(p.vx * p.vx + p.vy * p.vy + p.vz * p.vz);
    const double p =
        std::sqrt(d.momentum.x * d.momentum.x + d.momentum.y * d.momentum.y + d.momentum.z * d.momentum.z);
    EXPECT_LT(p, 1e-6 * scale) << name;  // float32 rounding of the corrected velocities
  }
}

TEST(Scene, CentralMassesAreTheFirstParticleOfEachDisk) {
  testing::TestRng rng;
  Scene s = preset_scene("galaxies");
  s.particles = 2 * rng.uniform_int(50, 1000) + rng.uniform_int(0, 1);
  s.seed = rng.engine()();
  const auto state = generate_initial_state(s);
  const std::size_t second = static_cast<std::size_t>(s.particles - s.particles / 2);
  EXPECT_EQ(state[0].mass, s.central_mass);
  EXPECT_EQ(state[second].mass, s.central_mass);
  EXPECT_LT(state[1].mass, 0.01f * s.central_mass);
  // The two galaxies start apart and approach each other.
  EXPECT_LT(state[0].x, 0.0f);
  EXPECT_GT(state[second].x, 0.0f);
  EXPECT_GT(state[0].vx, state[second].vx);
  Scene d = preset_scene("disk");
  d.particles = 100;
  EXPECT_EQ(generate_initial_state(d)[0].mass, d.central_mass);
}

TEST(Scene, InvalidScenesAreRejectedBeforeGenerating) {
  const auto bad = [](auto change) {
    Scene s = preset_scene("plummer");
    s.particles = 10;
    change(s);
    return s;
  };
  EXPECT_THROW(generate_initial_state(bad([](Scene& s) { s.particles = 0; })), std::invalid_argument);
  EXPECT_THROW(generate_initial_state(bad([](Scene& s) { s.particles = -5; })), std::invalid_argument);
  EXPECT_THROW(generate_initial_state(bad([](Scene& s) { s.params.dt = 0; })), std::invalid_argument);
  EXPECT_THROW(generate_initial_state(bad([](Scene& s) { s.params.dt = NAN; })), std::invalid_argument);
  EXPECT_THROW(generate_initial_state(bad([](Scene& s) { s.params.softening = -1; })), std::invalid_argument);
  EXPECT_THROW(generate_initial_state(bad([](Scene& s) { s.scale = 0; })), std::invalid_argument);
  EXPECT_THROW(generate_initial_state(bad([](Scene& s) { s.method = ForceMethod::Attractors; })),
               std::invalid_argument);
  EXPECT_THROW(generate_initial_state(bad([](Scene& s) { s.params.attractors.count = kMaxAttractors + 1; })),
               std::invalid_argument);
}

}  // namespace
}  // namespace coalesce
