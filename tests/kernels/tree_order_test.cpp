// The GPU tree's memory orders (TreeSettings' source_order and target_order, the lab's `tree-order`): sources
// stored at a random permutation give the curve copy's bits (the same tree, values and sums, read through the
// slots), and groups of consecutive state indices stay within the reference's error bounds while pulling
// more than curve groups (their boxes are wider).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/device_buffer.h"
#include "kernels/tree.h"
#include "sim/tree_settings.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/kernels/tree_test_support.h"

namespace coalesce {
namespace {

using testing::TestRng;
using namespace testing::tree;

std::string orders_text(const TreeSettings& s) {
  return "sources " + std::string(to_string(s.source_order)) + ", targets " +
         std::string(to_string(s.target_order));
}

TEST(TreeOrder, NamesAndDefaults) {
  const TreeSettings defaults;
  EXPECT_EQ(defaults.source_order, SourceOrder::Curve);
  EXPECT_EQ(defaults.target_order, TargetOrder::Curve);
  EXPECT_EQ(to_string(SourceOrder::Curve), "curve");
  EXPECT_EQ(to_string(SourceOrder::Shuffled), "shuffled");
  EXPECT_EQ(to_string(TargetOrder::Curve), "curve");
  EXPECT_EQ(to_string(TargetOrder::Particle), "particle");
  EXPECT_EQ(kSourceOrders.front(), SourceOrder::Curve);
  EXPECT_EQ(kTargetOrders.back(), TargetOrder::Particle);
}

// Shuffled sources: the same curve, the same copy by curve position, the same accelerations and kicks bit for
// bit, in either target order; a rebuild at another N (the slots made again) and at the same N (kept) too.
TEST(TreeOrder, ShuffledSourcesGiveTheCurvesBits) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  gpu::GpuTree shuffled_tree;  // kept across sizes: its slots must follow N
  for (int round = 0; round < 3; ++round) {
    SimParams params;
    const int n = round == 2 ? rng.uniform_int(1, 40)
                             : testing::size_or_quick(rng.uniform_int(2, 30000), rng.uniform_int(2, 3000));
    const std::vector<Particle> bodies =
        scene_bodies(rng, rng.uniform_int(0, 1) ? "plummer" : "galaxies", n, &params);
    const Layout layout = random_layout(rng);
    const Precision precision = random_precision(rng);
    TreeSettings settings;
    settings.theta = rng.uniform_int(0, 2) * 0.25;
    settings.group_size = random_group_size(rng);
    settings.target_order = rng.uniform_int(0, 1) ? TargetOrder::Curve : TargetOrder::Particle;
    SCOPED_TRACE(std::string(name_of(precision)) + " " + name_of(layout) + " N " + std::to_string(n) +
                 " theta " + std::to_string(settings.theta) + " group " +
                 std::to_string(settings.group_size) + " " + orders_text(settings));
    DeviceState curve_state = upload(bodies, layout, precision);
    DeviceState shuffled_state = upload(bodies, layout, precision);
    gpu::GpuTree curve_tree;
    curve_tree.build(curve_state.views, settings, nullptr);
    TreeSettings shuffled = settings;
    shuffled.source_order = SourceOrder::Shuffled;
    shuffled_tree.build(shuffled_state.views, shuffled, nullptr);
    EXPECT_EQ(curve_tree.download_order(), shuffled_tree.download_order());
    const std::vector<Vec4T<double>> a = curve_tree.download_sources(), b = shuffled_tree.download_sources();
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(Vec4T<double>)));
    const std::vector<double> want = tree_accelerations(curve_tree, curve_state, params);
    const std::vector<double> got = tree_accelerations(shuffled_tree, shuffled_state, params);
    EXPECT_EQ(0, std::memcmp(want.data(), got.data(), want.size() * sizeof(double)));
    shuffled_tree.build(shuffled_state.views, shuffled, nullptr);  // the same N: the kept slots
    const std::vector<double> again = tree_accelerations(shuffled_tree, shuffled_state, params);
    EXPECT_EQ(0, std::memcmp(want.data(), again.data(), want.size() * sizeof(double)));
    curve_tree.kick(curve_state.views, {0, n}, params, nullptr);
    shuffled_tree.kick(shuffled_state.views, {0, n}, params, nullptr);
    const TreeCounts c = curve_tree.last_counts(), s = shuffled_tree.last_counts();
    EXPECT_EQ(c.particle_particle, s.particle_particle);
    EXPECT_EQ(c.particle_node, s.particle_node);
    const std::vector<std::byte> x = download(curve_state), y = download(shuffled_state);
    EXPECT_EQ(0, std::memcmp(x.data(), y.data(), x.size()));
  }
}

// Particle-order groups: the error against the float64 direct sum within the reference's bounds (the tests'
// of tree_test.cpp: p99 <= 1.5e-3 at theta 0.3, 8e-3 at 0.5), more pulls than curve groups (wider boxes open
// more nodes), theta 0 still the direct sum's N^2 pulls, and slices of the targets give the whole kick's
// bits.
TEST(TreeOrder, ParticleGroupsWithinTheReferencesBoundsPullingMore) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  SCOPED_TRACE("seed " + std::to_string(rng.seed()));
  for (const char* preset : {"plummer", "galaxies"}) {
    SimParams params;
    const int n = testing::size_or_quick(rng.uniform_int(10000, 30000), rng.uniform_int(1000, 2000));
    const std::vector<Particle> bodies = scene_bodies(rng, preset, n, &params);
    const Layout layout = random_layout(rng);
    const Precision precision = random_precision(rng);
    const std::vector<double> exact =
        direct(upload(bodies, layout, precision), state_eps2(params, precision));
    for (double theta : {0.3, 0.5}) {
      SCOPED_TRACE(std::string(preset) + " " + name_of(precision) + " " + name_of(layout) + " N " +
                   std::to_string(n) + " theta " + std::to_string(theta));
      DeviceState state = upload(bodies, layout, precision);
      TreeSettings settings;
      settings.theta = theta;
      double pulls[2] = {0, 0};
      for (TargetOrder order : kTargetOrders) {
        settings.target_order = order;
        gpu::GpuTree tree;
        tree.build(state.views, settings, nullptr);
        const std::vector<double> e = sorted_errors(tree_accelerations(tree, state, params), exact);
        tree.kick(state.views, {0, n}, params, nullptr);
        const TreeCounts counts = tree.last_counts();
        pulls[static_cast<int>(order)] = counts.particle_particle + counts.particle_node;
        const double p99 = percentile(e, 0.99);
        std::printf(
            "%s %s N %d theta %.1f targets %s: p50 %.2e p99 %.2e max %.2e, %.0f pp + %.0f pn a body\n",
            preset, name_of(precision), n, theta, std::string(to_string(order)).c_str(), percentile(e, 0.5),
            p99, e.back(), counts.particle_particle / n, counts.particle_node / n);
        EXPECT_TRUE(std::isfinite(e.back()));
        EXPECT_LE(p99, theta == 0.5 ? 8e-3 : 1.5e-3) << to_string(order);
      }
      EXPECT_GT(pulls[1], pulls[0]) << "particle-order groups pulled no more than curve groups";
    }
  }
  // theta 0 and the slices, on a small state.
  SimParams params;
  const int n = rng.uniform_int(1, 3000);
  const std::vector<Particle> bodies = scene_bodies(rng, "galaxies", n, &params);
  const Layout layout = random_layout(rng);
  const Precision precision = random_precision(rng);
  const int k = rng.uniform_int(0, n);
  SCOPED_TRACE(std::string(name_of(precision)) + " " + name_of(layout) + " N " + std::to_string(n) + " k " +
               std::to_string(k));
  TreeSettings settings;
  settings.target_order = TargetOrder::Particle;
  settings.group_size = random_group_size(rng);
  settings.theta = 0;
  DeviceState state = upload(bodies, layout, precision);
  gpu::GpuTree tree;
  tree.build(state.views, settings, nullptr);
  tree.kick(state.views, {0, n}, params, nullptr);
  const TreeCounts counts = tree.last_counts();
  EXPECT_EQ(counts.particle_particle, double(n) * n);
  EXPECT_EQ(counts.particle_node, 0.0);
  settings.theta = 0.5;
  DeviceState whole = upload(bodies, layout, precision), sliced = upload(bodies, layout, precision);
  tree.build(whole.views, settings, nullptr);
  tree.kick(whole.views, {0, n}, params, nullptr);
  gpu::GpuTree other;
  other.build(sliced.views, settings, nullptr);
  other.kick(sliced.views, {0, k}, params, nullptr);
  other.kick(sliced.views, {k, n}, params, nullptr);
  const std::vector<std::byte> a = download(whole), b = download(sliced);
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size()));
}

}  // namespace
}  // namespace coalesce
