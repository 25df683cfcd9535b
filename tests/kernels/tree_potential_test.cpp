// The GPU tree's own potential energy (issue 32: a tree run's energy at any N), through
// CudaBackend::diagnostics on fresh random scenes, against the CPU's exact pair sum (the reference): at
// theta 0 it is that sum up to the order of its double terms; at the default theta within the CPU tree's
// bound, in any group size and target order; the same bits on a second call and in every layout; the state
// untouched.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/cuda_backend.h"
#include "sim/cpu_backend.h"
#include "sim/limits.h"
#include "sim/scene.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"
#include "tests/support/test_scene.h"

namespace coalesce {
namespace {

using testing::TestRng;

double relative(double got, double exact) {
  return std::abs(got - exact) / std::abs(exact);
}

// The CPU's exact pair sum (compute_diagnostics' definitions) of a state in one precision.
Diagnostics exact_on_cpu(const std::vector<Particle>& bodies, Precision precision, const SimParams& params) {
  CpuBackend cpu(static_cast<int>(bodies.size()), Layout::SoA, 2, precision);
  cpu.upload(bodies);
  cpu.set_force_method(ForceMethod::OneSidedAllPairs);
  return cpu.diagnostics(params, 0.0);
}

Diagnostics tree_on_gpu(const std::vector<Particle>& bodies, Layout layout, Precision precision,
                        const TreeSettings& settings, const SimParams& params) {
  CudaBackend gpu(static_cast<int>(bodies.size()), layout, 0, precision);
  gpu.upload(bodies);
  gpu.set_tree_settings(settings);
  gpu.set_force_method(ForceMethod::Tree);
  return gpu.diagnostics(params, 0.0);
}

SimParams random_softening(TestRng& rng) {
  SimParams params;
  params.softening = rng.uniform(0.005f, 0.05f);
  return params;
}

// theta 0 opens every node: every pair once from each side in double, halved, against the exact sum's i < j
// rows: the same double terms (up to FMA contraction, an ulp each) in another order, so N ulps of the sum at
// most (N <= 3,000: < 1e-12). The kinetic energy is the same double sum in another reduction.
TEST(GpuTreePotential, ThetaZeroIsTheExactPairPotential) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  TreeSettings settings;
  settings.theta = 0.0;
  for (const char* preset : {"plummer", "galaxies"})
    for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
      const int n = rng.uniform_int(2, testing::size_or_quick(3000, 300));
      const std::vector<Particle> bodies = testing::scene_bodies(rng, preset, n);
      const SimParams params = random_softening(rng);
      const Layout layout = testing::random_layout(rng);
      const std::string what = std::string(preset) + " " + std::string(to_string(precision)) + " " +
                               std::string(to_string(layout)) + " N " + std::to_string(n);
      const Diagnostics tree = tree_on_gpu(bodies, layout, precision, settings, params);
      const Diagnostics exact = exact_on_cpu(bodies, precision, params);
      ASSERT_TRUE(tree.tree_theta.has_value()) << what;
      EXPECT_EQ(*tree.tree_theta, 0.0) << what;
      EXPECT_LE(relative(tree.potential_energy, exact.potential_energy), 1e-12) << what;
      EXPECT_LE(relative(tree.kinetic_energy, exact.kinetic_energy), 1e-12) << what;
      EXPECT_EQ(tree.total_energy, tree.kinetic_energy + tree.potential_energy) << what;
    }
}

// The CPU tree's bound (tests/sim/tree_potential_test.cpp: measured up to 3.2e-5 at the default theta,
// bound 1e-4): the GPU tree is the same octree with its own leaves and groups, whose lists differ a little.
// Random group size (one target a lane or two) and target order: every potential kernel runs.
TEST(GpuTreePotential, DefaultThetaIsCloseToTheExactPotential) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  for (const char* preset : {"plummer", "galaxies"})
    for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
      const int n = rng.uniform_int(5000, 12000);
      TreeSettings settings;
      settings.group_size = rng.uniform_int(0, 1) ? 64 : 32;
      settings.target_order = rng.uniform_int(0, 3) == 0 ? TargetOrder::Particle : TargetOrder::Curve;
      const std::vector<Particle> bodies = testing::scene_bodies(rng, preset, n);
      const SimParams params = random_softening(rng);
      const Diagnostics tree = tree_on_gpu(bodies, testing::random_layout(rng), precision, settings, params);
      const double err =
          relative(tree.potential_energy, exact_on_cpu(bodies, precision, params).potential_energy);
      std::printf("%s %s N %d group %d %s: relative potential error %.2e\n", preset,
                  std::string(to_string(precision)).c_str(), n, settings.group_size,
                  settings.target_order == TargetOrder::Particle ? "particle order" : "curve order", err);
      EXPECT_LE(err, 1e-4) << preset << " " << to_string(precision) << " N " << n;
      EXPECT_GT(err, 0.0) << "theta " << kDefaultTheta << " should take some nodes whole";
    }
}

// Each body's phi depends on the tree and its group alone, and the tree is built from the same values in
// every layout: the same bits on a second call and across layouts, and the state is left as it was.
TEST(GpuTreePotential, SameBitsTwiceAndInEveryLayout) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  const int n = rng.uniform_int(testing::size_or_quick(3000, 300), testing::size_or_quick(40000, 2000));
  const std::vector<Particle> bodies =
      testing::scene_bodies(rng, rng.uniform_int(0, 1) ? "plummer" : "galaxies", n);
  const SimParams params = random_softening(rng);
  for (Precision precision : {Precision::Fp32, Precision::Fp64}) {
    std::vector<double> got;
    for (Layout layout : kAllLayouts) {
      CudaBackend gpu(n, layout, 0, precision);
      gpu.upload(bodies);
      gpu.set_force_method(ForceMethod::Tree);
      const double first = gpu.diagnostics(params, 0.0).potential_energy;
      EXPECT_EQ(gpu.diagnostics(params, 0.0).potential_energy, first) << to_string(layout) << " second call";
      EXPECT_TRUE(testing::bitwise_equal(gpu.download(), bodies)) << to_string(layout) << ": state changed";
      got.push_back(first);
    }
    for (std::size_t k = 1; k < got.size(); ++k)
      EXPECT_EQ(got[k], got[0]) << to_string(precision) << " " << to_string(kAllLayouts[k]) << " N " << n;
  }
}

// Past the exact pair sum's limit a tree run's energy is still computed (the tree's own), at any N the
// backend takes.
TEST(GpuTreePotential, AffordableAtAnyN) {
  COALESCE_REQUIRE_CUDA();
  CudaBackend gpu(33, Layout::Float4);
  gpu.set_force_method(ForceMethod::Tree);
  EXPECT_EQ(gpu.max_diagnostics_particles(), kMaxParticles);
  EXPECT_TRUE(gpu.diagnostics_affordable());
}

}  // namespace
}  // namespace coalesce
