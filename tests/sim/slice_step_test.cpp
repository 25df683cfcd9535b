// The CPU backend's slices (Backend::step_range) and source exchange, as ranks use them: K backends stepping
// random slices give one whole step's state bit for bit, on every SIMD target, layout, precision and slicing
// solver (the tree's: each rank builds the whole tree and walks its slice).
#include <gtest/gtest.h>

#include "sim/cpu_backend.h"
#include "tests/support/slice_step.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

TEST(CpuSlices, RandomSlicesStepLikeTheWholeStateBitwise) {
  TestRng rng;
  for (const CpuTargetInfo& row : kCpuTargetTable) {
    const CpuTarget target = row.target;
    if (!cpu_target_supported(target)) continue;
    const int threads = rng.uniform_int(1, 3);
    const testing::BackendMaker make = [&](int n, Layout layout, Precision precision) {
      return std::make_unique<CpuBackend>(n, layout, threads, precision, target);
    };
    for (Layout layout : kAllLayouts) {
      for (Precision precision : kAllPrecisions) {
        const int n = rng.uniform_int(1, 700);
        const int pick = rng.uniform_int(0, 5);
        const ForceMethod method = pick == 0  ? ForceMethod::Attractors
                                   : pick < 3 ? ForceMethod::Tree
                                              : ForceMethod::OneSidedAllPairs;
        SimParams params;
        params.dt = rng.uniform(0.01f, 0.1f);
        params.softening = rng.uniform(0.02f, 0.1f);
        params.attractors.count = 2;
        params.attractors.items[0] = {{0.5f, 0, 0}, 1.0f, 0.0f, 0.0f, 0.0f};
        params.attractors.items[1] = {{-0.5f, 0, 0}, 0.5f, 0.3f, 1.0f, 0.5f};
        testing::expect_slices_step_like_whole(
            make, testing::random_particles_wide(rng, n), layout, precision, method, params,
            testing::random_cuts(rng, n, rng.uniform_int(1, 4)), 2,
            std::string(row.label) + " seed " + std::to_string(rng.seed()));
      }
    }
  }
}

TEST(CpuSlices, ExportThenImportRestoresPositionsAndMassesOnly) {
  TestRng rng;
  const int n = rng.uniform_int(2, 300);
  const Layout layout = testing::random_layout(rng);
  const Precision precision = testing::random_precision(rng);
  CpuBackend a(n, layout, 1, precision), b(n, layout, 1, precision);
  const auto first = testing::random_particles_wide(rng, n), second = testing::random_particles_wide(rng, n);
  a.upload(first);
  b.upload(second);
  auto exchange = a.rank_exchange().make_exchange_buffer();
  const int cut = rng.uniform_int(0, n);
  const auto from_a = a.download_f64(), before = b.download_f64();
  a.rank_exchange().export_sources(0, cut, *exchange);
  b.rank_exchange().import_sources(0, cut, *exchange);
  const auto got = b.download_f64();
  for (int i = 0; i < n; ++i) {
    const auto& g = got[static_cast<std::size_t>(i)];
    const auto& own = before[static_cast<std::size_t>(i)];
    // Bodies [0, cut) take a's position and mass; velocities never travel, and the rest stays b's own.
    const auto& moved = i < cut ? from_a[static_cast<std::size_t>(i)] : own;
    EXPECT_EQ(g.x, moved.x) << "seed " << rng.seed() << " i=" << i;
    EXPECT_EQ(g.y, moved.y) << "seed " << rng.seed() << " i=" << i;
    EXPECT_EQ(g.z, moved.z) << "seed " << rng.seed() << " i=" << i;
    EXPECT_EQ(g.mass, moved.mass) << "seed " << rng.seed() << " i=" << i;
    EXPECT_EQ(g.vx, own.vx) << "seed " << rng.seed() << " i=" << i;
    EXPECT_EQ(g.vy, own.vy) << "seed " << rng.seed() << " i=" << i;
    EXPECT_EQ(g.vz, own.vz) << "seed " << rng.seed() << " i=" << i;
  }
  EXPECT_THROW(a.rank_exchange().export_sources(0, n + 1, *exchange), std::invalid_argument);
}

TEST(CpuSlices, MutualRefusesASlice) {
  TestRng rng;
  const int n = rng.uniform_int(10, 200);
  CpuBackend backend(n, Layout::SoA, 1);
  testing::expect_mutual_refuses_a_slice(backend, testing::random_particles(rng, n));
}

}  // namespace
}  // namespace coalesce
