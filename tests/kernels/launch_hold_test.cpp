// bench's held launches (kernels/launch_hold.h): the device starts nothing until release, then runs what was
// queued, with the same results as unheld and event timings that hold none of the wait.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "kernels/cuda_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::bitwise_equal;
using testing::TestRng;

TEST(LaunchHold, HeldStepsRunAfterReleaseWithTheSameResultsAndNoneOfTheWaitInTheirTimings) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = rng.uniform_int(1 << 16, 1 << 20);
  const Layout layout = testing::random_layout(rng);
  const std::vector<Particle> state = testing::random_particles(rng, n);
  SimParams params;  // stepped under the attractors method with none: each step is a drift
  params.dt = rng.uniform(1e-4f, 1e-2f);
  params.attractors.count = 0;
  const int steps = rng.uniform_int(3, 12);

  CudaBackend unheld(n, layout);
  unheld.upload(state);
  unheld.set_force_method(ForceMethod::Attractors);
  for (int i = 0; i < steps; ++i) unheld.step(params, 0.0);

  CudaBackend held(n, layout);
  held.upload(state);
  held.set_force_method(ForceMethod::Attractors);
  (void)held.poll_timings();
  const auto wait = std::chrono::milliseconds(rng.uniform_int(100, 200));
  held.hold_launches();
  for (int i = 0; i < steps; ++i) held.step(params, 0.0);
  std::this_thread::sleep_for(wait);
  EXPECT_TRUE(held.poll_timings().empty()) << "a held step finished before release";
  held.release_launches();
  held.synchronize();
  const std::vector<KernelTiming> timings = held.poll_timings();
  EXPECT_EQ(timings.size(), static_cast<std::size_t>(2 * steps)) << "a kick and a drift per step";
  for (const KernelTiming& t : timings)
    EXPECT_LT(t.milliseconds, 0.5 * wait.count()) << to_string(t.kernel) << " timed the wait (N=" << n << ")";
  EXPECT_TRUE(bitwise_equal(held.download(), unheld.download())) << "N=" << n << " " << to_string(layout);
}

}  // namespace
}  // namespace coalesce
