// The CPU tree (sim/cpu_tree.h), the tree method's reference, on fresh random scenes: with theta = 0 it is
// the direct sum; at the default theta its relative acceleration error against a long-double direct sum stays
// within what a quadrupole walk gives; the curve is a permutation; a slice of targets has the whole's bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/cpu_backend.h"
#include "sim/cpu_tree.h"
#include "sim/scene.h"
#include "sim/thread_pool.h"
#include "tests/support/cpu_targets_here.h"
#include "tests/support/test_random.h"
#include "tests/support/test_scene.h"

namespace coalesce {
namespace {

using testing::TestRng;

// Each body's acceleration summed in long double, every other body, softened as the tree's pairs.
std::vector<std::array<long double, 3>> direct_sum(const std::vector<Particle>& bodies, long double eps2) {
  std::vector<std::array<long double, 3>> a(bodies.size());
  for (std::size_t i = 0; i < bodies.size(); ++i)
    for (const Particle& b : bodies) {
      const long double dx = (long double)b.x - bodies[i].x, dy = (long double)b.y - bodies[i].y,
                        dz = (long double)b.z - bodies[i].z;
      const long double r2 = dx * dx + dy * dy + dz * dz + eps2;
      const long double s = b.mass / (r2 * std::sqrt(r2));
      a[i][0] += dx * s;
      a[i][1] += dy * s;
      a[i][2] += dz * s;
    }
  return a;
}

// The walk's accelerations of `targets`; `target`: the vector loops of that SIMD target (Scalar, or one this
// CPU does not run: the scalar loops).
template <class Real>
std::vector<Vec3T<Real>> tree_accelerations(const std::vector<Particle>& bodies, const TreeSettings& settings,
                                            Real eps2, BodyRange targets, ThreadPool& pool,
                                            TreeCounts* counts = nullptr,
                                            CpuTarget target = CpuTarget::Scalar) {
  const SimdKernels* kernels = simd_kernels(target);
  CpuTree<Real> tree;
  const auto source = [&](int i) {
    const Particle& b = bodies[static_cast<std::size_t>(i)];
    return Vec4T<Real>{Real(b.x), Real(b.y), Real(b.z), Real(b.mass)};
  };
  tree.build(source, static_cast<int>(bodies.size()), settings,
             &pool);  // the build on the walk's threads too
  std::vector<Vec3T<Real>> a(bodies.size(), Vec3T<Real>{0, 0, 0});
  const TreeCounts c = tree.accelerations(
      pool,
      [&](int i) {
        const auto s = source(i);
        return Vec3T<Real>{s.x, s.y, s.z};
      },
      targets, eps2, [&](int i, Vec3T<Real> v) { a[static_cast<std::size_t>(i)] = v; },
      kernels ? &simd_kernels_for<Real>(*kernels) : nullptr);
  if (counts) *counts = c;
  return a;
}

// |a - exact| / |exact| of every body, sorted.
template <class Real>
std::vector<double> sorted_errors(const std::vector<Vec3T<Real>>& got,
                                  const std::vector<std::array<long double, 3>>& exact) {
  std::vector<double> e(got.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const long double d[3] = {got[i].x - exact[i][0], got[i].y - exact[i][1], got[i].z - exact[i][2]};
    const long double norm =
        std::sqrt(exact[i][0] * exact[i][0] + exact[i][1] * exact[i][1] + exact[i][2] * exact[i][2]);
    e[i] = static_cast<double>(std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / norm);
  }
  std::sort(e.begin(), e.end());
  return e;
}

double percentile(const std::vector<double>& sorted, double p) {
  return sorted[static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1))];
}

// theta = 0 opens every node: the walk is the direct sum, in double up to the summation's rounding.
TEST(CpuTree, ThetaZeroIsTheDirectSum) {
  TestRng rng;
  ThreadPool pool(2);
  const int n = rng.uniform_int(1, 900);
  const std::vector<Particle> bodies = testing::scene_bodies(rng, "plummer", n);
  const double eps2 = 0.05 * 0.05;
  TreeSettings settings;
  settings.theta = 0;
  settings.leaf_size = rng.uniform_int(1, 20);
  const auto got = tree_accelerations<double>(bodies, settings, eps2, {0, n}, pool);
  const std::vector<double> e = sorted_errors(got, direct_sum(bodies, eps2));
  EXPECT_LE(e.back(), 1e-12) << "N " << n;
}

// The opening angle trades error for work, and the quadrupole pays. Measured here at N 2,000-4,000 (five
// seeds, 2026-11-26): p99 at theta 0.5 was 1.2e-3..1.7e-3 (galaxies) and 3.0e-3..4.5e-3 (Plummer), at 0.3
// 2.3e-4..7.3e-4; a monopole-only walk gave 1.2e-2 at 0.5 and a quadrupole of the wrong sign 2.3e-2. The
// bounds (8e-3 at 0.5, 1.5e-3 at 0.3) sit between: a missing or wrong quadrupole fails them.
TEST(CpuTree, ErrorPercentilesShrinkWithTheOpeningAngle) {
  TestRng rng;
  ThreadPool pool(2);
  for (const char* preset : {"plummer", "galaxies"}) {
    const int n = rng.uniform_int(2000, 4000);
    const std::vector<Particle> bodies = testing::scene_bodies(rng, preset, n);
    const double eps2 = 0.05 * 0.05;
    const auto exact = direct_sum(bodies, eps2);
    double previous_p99 = 0;
    for (double theta : {0.3, 0.5, 0.7}) {
      TreeSettings settings;
      settings.theta = theta;
      TreeCounts counts;
      const std::vector<double> e =
          sorted_errors(tree_accelerations<double>(bodies, settings, eps2, {0, n}, pool, &counts), exact);
      const double p50 = percentile(e, 0.5), p99 = percentile(e, 0.99);
      std::printf("%s N %d theta %.1f: p50 %.2e p99 %.2e max %.2e, %.0f pp + %.0f pn a body\n", preset, n,
                  theta, p50, p99, e.back(), counts.particle_particle / n, counts.particle_node / n);
      EXPECT_LE(p50, p99);
      if (theta == 0.5) {
        EXPECT_LE(p99, 8e-3) << preset << " N " << n;
      }
      if (theta == 0.3) {
        EXPECT_LE(p99, 1.5e-3) << preset << " N " << n;
      }
      EXPECT_GT(p99, previous_p99) << preset << " theta " << theta;
      previous_p99 = p99;
      EXPECT_LT(counts.particle_particle + counts.particle_node, static_cast<double>(n) * n);
    }
  }
}

// --theta's default keeps the bound, p99 <= 5e-4, on both scenes in both precisions. Measured here
// at N 4,000-8,000 (three seeds each, 2026-11-26, fp32): p99 at theta 0.25 was 2.4e-4..3.9e-4 (Plummer) and
// 1.2e-4..1.6e-4 (galaxies); at 0.3 Plummer reached 7.8e-4, so 0.3 would fail here. Plummer's p99 grows with
// N (more nodes are accepted further in): at 1M on the GPU theta 0.25 gave 7.1e-4, hence the default 0.18
// (docs/perf.md); this test checks the bound at the largest N a test affords.
TEST(CpuTree, TheDefaultThetaKeepsP99Within5e4) {
  TestRng rng;
  ThreadPool pool(2);
  for (const char* preset : {"plummer", "galaxies"}) {
    const int n = rng.uniform_int(6000, 8000);
    const std::vector<Particle> bodies = testing::scene_bodies(rng, preset, n);
    const Scene scene = preset_scene(preset);
    const double eps2 = static_cast<double>(scene.params.softening) * scene.params.softening;
    const auto exact = direct_sum(bodies, eps2);
    for (const CpuTarget simd : {CpuTarget::Scalar, best_cpu_target()}) {
      SCOPED_TRACE(cpu_target_info(simd).label);
      const std::vector<double> e32 =
          sorted_errors(tree_accelerations<float>(bodies, TreeSettings{}, static_cast<float>(eps2), {0, n},
                                                  pool, nullptr, simd),
                        exact);
      const std::vector<double> e64 = sorted_errors(
          tree_accelerations<double>(bodies, TreeSettings{}, eps2, {0, n}, pool, nullptr, simd), exact);
      EXPECT_LE(percentile(e32, 0.99), 5e-4) << preset << " fp32 N " << n;
      EXPECT_LE(percentile(e64, 0.99), 5e-4) << preset << " fp64 N " << n;
      // fp32's pairs round at 6e-8 a term: its median cannot be far from fp64's, which is the angle's alone.
      EXPECT_LE(percentile(e32, 0.5), percentile(e64, 0.5) * 1.5 + 1e-6) << preset << " N " << n;
    }
  }
}

// The vector loops (pairs in Real as the scalar's, nodes in Real where the scalar's are in double) agree with
// the scalar reference on every target this CPU runs, to a few of Real's roundings a pull.
TEST(CpuTree, TheVectorLoopsAgreeWithTheScalarOnEveryTarget) {
  COALESCE_REQUIRE_SIMD();
  TestRng rng;
  ThreadPool pool(2);
  const int n = rng.uniform_int(1000, 3000);
  const std::vector<Particle> bodies = testing::scene_bodies(rng, "plummer", n);
  TreeSettings settings;
  settings.theta = rng.uniform(0.2f, 0.8f);
  const auto scalar32 = tree_accelerations<float>(bodies, settings, 0.0025f, {0, n}, pool);
  const auto scalar64 = tree_accelerations<double>(bodies, settings, 0.0025, {0, n}, pool);
  for (const CpuTarget target : testing::simd_targets_here()) {
    const CpuTargetInfo& row = cpu_target_info(target);
    SCOPED_TRACE(std::string(row.label));
    const auto vector32 =
        tree_accelerations<float>(bodies, settings, 0.0025f, {0, n}, pool, nullptr, row.target);
    const auto vector64 =
        tree_accelerations<double>(bodies, settings, 0.0025, {0, n}, pool, nullptr, row.target);
    std::vector<double> e32, e64;
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      const auto relative = [](auto a, auto b) {
        const double d[3] = {double(a.x) - b.x, double(a.y) - b.y, double(a.z) - b.z};
        return std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) /
               std::sqrt(double(b.x) * b.x + double(b.y) * b.y + double(b.z) * b.z);
      };
      e32.push_back(relative(vector32[i], scalar32[i]));
      e64.push_back(relative(vector64[i], scalar64[i]));
    }
    std::sort(e32.begin(), e32.end());
    std::sort(e64.begin(), e64.end());
    // Measured here (2026-11-26, AVX-512, AVX2 and SSE4, theta 0.22-0.42, three seeds): p99 2.6e-7..3.1e-7
    // (fp32) and 4.8e-16..5.9e-16 (fp64); the bounds are ten times that, far below the walk's 1e-4.
    EXPECT_LE(percentile(e32, 0.99), 3e-6) << "theta " << settings.theta << " N " << n;
    EXPECT_LE(percentile(e64, 0.99), 6e-15) << "theta " << settings.theta << " N " << n;
    std::printf("%s theta %.2f N %d: fp32 p99 %.2e max %.2e, fp64 p99 %.2e max %.2e\n",
                std::string(row.name).c_str(), settings.theta, n, percentile(e32, 0.99), e32.back(),
                percentile(e64, 0.99), e64.back());
  }
}

// The curve is a permutation of the bodies, and a slice of targets gets the whole walk's bits: groups are
// fixed runs of the curve, whatever targets are asked for, and the thread count does not matter.
TEST(CpuTree, ASliceHasTheWholesBitsOnAnyThreadCount) {
  TestRng rng;
  const int n = rng.uniform_int(2, 3000);
  const std::vector<Particle> bodies = testing::scene_bodies(rng, "galaxies", n);
  ThreadPool one(1), three(3);
  TreeSettings settings;
  settings.theta = 0.6;
  const float eps2 = 0.05f * 0.05f;
  const auto whole = tree_accelerations<float>(bodies, settings, eps2, {0, n}, one);
  const int begin = rng.uniform_int(0, n - 1), end = rng.uniform_int(begin + 1, n);
  const auto slice = tree_accelerations<float>(bodies, settings, eps2, {begin, end}, three);
  for (int i = begin; i < end; ++i) {
    const auto at = static_cast<std::size_t>(i);
    ASSERT_TRUE(whole[at].x == slice[at].x && whole[at].y == slice[at].y && whole[at].z == slice[at].z)
        << "body " << i << " of [" << begin << ", " << end << ") N " << n;
  }
  CpuTree<float> tree;
  tree.build(
      [&](int i) {
        const Particle& b = bodies[static_cast<std::size_t>(i)];
        return Vec4T<float>{b.x, b.y, b.z, b.mass};
      },
      n, settings);
  std::vector<int> seen(static_cast<std::size_t>(n), 0);
  for (int k = 0; k < n; ++k) ++seen[static_cast<std::size_t>(tree.body_at(k))];
  EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; }));
}

// The tree as the backend's force method: every layout reads the same values in the same order, so the
// layouts step alike bit for bit; the forces' timing counts the walk's pulls, fewer than N^2.
TEST(CpuTreeMethod, LayoutsStepAlikeAndTheWalkIsCounted) {
  TestRng rng;
  const int n = rng.uniform_int(100, 3000);
  const Precision precision = testing::random_precision(rng);
  const std::vector<Particle> bodies = testing::scene_bodies(rng, "galaxies", n);
  const SimParams params = preset_scene("galaxies").params;
  std::vector<ParticleF64> first;
  for (Layout layout : kAllLayouts) {
    CpuBackend backend(n, layout, rng.uniform_int(1, 3), precision);
    backend.upload(bodies);
    backend.set_force_method(ForceMethod::Tree);
    for (int s = 0; s < 2; ++s) backend.step(params, s * static_cast<double>(params.dt));
    const std::vector<ParticleF64> got = backend.download_f64();
    if (first.empty()) first = got;
    for (int i = 0; i < n; ++i) {
      const ParticleF64 &a = got[static_cast<std::size_t>(i)], &b = first[static_cast<std::size_t>(i)];
      ASSERT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z && a.vx == b.vx && a.vy == b.vy && a.vz == b.vz)
          << to_string(layout) << " body " << i << " N " << n;
    }
    for (const KernelTiming& t : backend.poll_timings())
      if (t.kernel == KernelKind::Forces) {
        EXPECT_GT(t.interactions, 0.0);
        EXPECT_LE(t.interactions, static_cast<double>(n) * n);
      }
  }
}

// The backend's error check (sim/force_error.h): the tree's sampled accelerations against the float64 direct
// sum keep the default theta's bound (measured above), theta 0 leaves only the rounding of the state's
// precision, and an exact method has nothing to sample.
TEST(CpuTreeMethod, TheSampledErrorIsTheWalksAgainstTheDirectSum) {
  TestRng rng;
  const int n = rng.uniform_int(3000, 6000);
  const Precision precision = testing::random_precision(rng);
  const std::vector<Particle> bodies = testing::scene_bodies(rng, "galaxies", n);
  const SimParams params = preset_scene("galaxies").params;
  CpuBackend backend(n, testing::random_layout(rng), 2, precision);
  backend.upload(bodies);
  const std::vector<int> targets = error_targets(n, kErrorTargets, rng.engine()());
  EXPECT_FALSE(backend.sample_accelerations(params, targets).has_value());  // one-sided all-pairs: exact
  EXPECT_FALSE(backend.tree_report().has_value());
  backend.set_force_method(ForceMethod::Tree);
  const auto sample = backend.sample_accelerations(params, targets);
  ASSERT_TRUE(sample.has_value());
  const ForceErrors e = force_errors(*sample);
  EXPECT_EQ(e.targets, static_cast<int>(targets.size()));
  EXPECT_LE(e.p99, 5e-4) << to_string(precision) << " N " << n;
  TreeSettings exact;
  exact.theta = 0;
  backend.set_tree_settings(exact);
  // fp32 pairs round at 6e-8 a term and the vector loop's rsqrt series at a few ulps; summed over N terms
  // that cancel near the discs' centres, the worst body reached 2.1e-5 here. The 99th percentile's bound,
  // 1e-5, is far above the rounding and ten times below theta 0.25's (1.2e-4 and more, measured above).
  const double rounding = precision == Precision::Fp32 ? 1e-5 : 1e-12;
  EXPECT_LE(force_errors(*backend.sample_accelerations(params, targets)).p99, rounding)
      << to_string(precision);
  backend.step(params, 0.0);
  const std::optional<TreeReport> report = backend.tree_report();
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->targets, n);
  EXPECT_EQ(report->settings.theta, 0.0);
  EXPECT_EQ(report->stages_ms.size(), 2u);
  EXPECT_NEAR(report->counts.particle_particle + report->counts.particle_node, double(n) * n, 0.5);
}

}  // namespace
}  // namespace coalesce
