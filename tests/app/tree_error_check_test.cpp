// The viewer's live error check (app/services/tree_error_check.h) on the CPU backend: it checks the tree
// against the float64 direct sum when due and only then, on kErrorTargets bodies, keeps within its share
// of the run's time, forgets on request, and checks nothing for an exact method.
#include <gtest/gtest.h>

#include <string>

#include "app/services/tree_error_check.h"
#include "sim/cpu_backend.h"
#include "sim/scene.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

// A preset's state of n bodies from `seed`, uploaded.
Scene started(const std::string& preset, int n, std::uint64_t seed, Backend& backend) {
  Scene scene = preset_scene(preset);
  scene.particles = n;
  scene.seed = seed;
  backend.upload(generate_initial_state(scene));
  return scene;
}

TEST(TreeErrorCheck, ChecksTheTreeWhenDueWithinItsShare) {
  TestRng rng;
  const int n = rng.uniform_int(kErrorTargets + 1, 6000);
  const std::uint64_t seed = rng.engine()();
  SCOPED_TRACE("N=" + std::to_string(n) + " scene seed " + std::to_string(seed));
  CpuBackend backend(n, random_layout(rng), 2, Precision::Fp32);
  const Scene scene = started("galaxies", n, seed, backend);
  backend.set_force_method(ForceMethod::Tree);
  TreeErrorCheck check(rng.engine()());
  const double t0 = rng.uniform(0.0f, 1000.0f);
  ASSERT_TRUE(check.update(backend, scene.params, 7, t0)) << "the first update checks at once";
  ASSERT_TRUE(check.last());
  const ErrorCheckResult first = *check.last();
  EXPECT_EQ(first.errors.targets, kErrorTargets);
  EXPECT_EQ(first.step, 7u);
  // The default theta's promise (sim/tree_settings.h), on the galaxies it was chosen for; a broken walk
  // (a NaN sorts as inf) or no tree at all (error 0 everywhere would mean it compared the sum with itself)
  // fails here.
  EXPECT_GT(first.errors.max, 0.0);
  EXPECT_LE(first.errors.p50, first.errors.p99);
  EXPECT_LE(first.errors.p99, 5e-4);
  EXPECT_GE(first.interval_s, kCheckInterval);
  EXPECT_GE(first.interval_s * 1000.0 * kMaxCheckShare, first.check_ms * (1 - 1e-12));
  EXPECT_LE(first.share(), kMaxCheckShare * (1 + 1e-12));
  EXPECT_FALSE(check.update(backend, scene.params, 8, t0 + 0.5 * first.interval_s)) << "not yet due";
  EXPECT_EQ(check.last()->seed, first.seed);
  EXPECT_TRUE(check.update(backend, scene.params, 9, t0 + first.interval_s)) << "due";
  EXPECT_NE(check.last()->seed, first.seed) << "each check draws fresh targets";
  check.forget();
  EXPECT_FALSE(check.last());
  EXPECT_TRUE(check.update(backend, scene.params, 9, t0 + first.interval_s)) << "forget: due now";
}

TEST(TreeErrorCheck, AnExactMethodIsNeverChecked) {
  TestRng rng;
  const int n = rng.uniform_int(2, 3000);
  CpuBackend backend(n, random_layout(rng), 2, random_precision(rng));
  const Scene scene = started("plummer", n, rng.engine()(), backend);
  TreeErrorCheck check(rng.engine()());
  EXPECT_FALSE(check.update(backend, scene.params, 0, 0.0)) << "N=" << n;
  EXPECT_FALSE(check.last());
}

}  // namespace
}  // namespace coalesce::testing
