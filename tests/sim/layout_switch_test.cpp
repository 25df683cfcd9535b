// Layout switching keeps the state bit for bit (the viewer relies on Backend::set_layout): 1000 random
// switches, then a step that matches the step of a backend that never switched.
#include <gtest/gtest.h>

#include "sim/cpu_backend.h"
#include "sim/scene.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

TEST(LayoutSwitch, ThousandRandomSwitchesKeepTheStateBitwise) {
  TestRng rng;
  const int n = rng.uniform_int(100, 3000);
  const std::vector<Particle> state = random_particles(rng, n);
  const Layout first = testing::random_layout(rng);
  CpuBackend backend(n, first, 2);
  backend.upload(state);
  Layout current = first;
  int actual_switches = 0;
  for (int i = 0; i < 1000; ++i) {
    const Layout next = testing::random_layout(rng);
    actual_switches += next != current;
    backend.set_layout(next);
    current = next;
    ASSERT_EQ(backend.layout(), next);
  }
  EXPECT_GT(actual_switches, 500);
  EXPECT_TRUE(bitwise_equal(backend.download(), state)) << "after 1000 switches from " << to_string(first);

  // The next step equals that of a backend that started in the final layout and never switched.
  SimParams params;
  params.dt = rng.uniform(1e-4f, 1e-2f);
  params.softening = rng.uniform(0.01f, 0.2f);
  CpuBackend fresh(n, current, 2);
  fresh.upload(state);
  backend.step(params, 0.0);
  fresh.step(params, 0.0);
  EXPECT_TRUE(bitwise_equal(backend.download(), fresh.download()));
}

}  // namespace
}  // namespace coalesce::testing
