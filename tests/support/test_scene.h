// A preset scene's bodies from a fresh seed the test's generator draws (so a failure's printed seed replays
// them), and optionally the preset's parameters.
#pragma once

#include <vector>

#include "sim/scene.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {

inline std::vector<Particle> scene_bodies(TestRng& rng, const char* preset, int n,
                                          SimParams* params = nullptr) {
  Scene scene = preset_scene(preset);
  scene.particles = n;
  scene.seed = rng.engine()();
  if (params) *params = scene.params;
  return generate_initial_state(scene);
}

}  // namespace coalesce::testing
