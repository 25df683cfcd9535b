// The mutual all-pairs scheme on the CPU (sim/cpu_mutual.h), the reference the CUDA kernel is held to:
// its split of the pairs (sim/mutual_tiles.h) covers each once, its sums match long-double sums within the
// bound of recursive summation, every layout and thread count gives the same bits, and the momentum it
// changes stays within what the roundings allow.
#include <gtest/gtest.h>

#include <climits>

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <set>
#include <utility>
#include <vector>

#include "sim/cpu_backend.h"
#include "sim/mutual_tiles.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

TEST(MutualTiles, RectanglesCoverEveryTilePairAndEverySlotOnce) {
  TestRng rng;
  for (int trial = 0; trial < 40; ++trial) {
    MutualTiles t;
    t.tiles = rng.uniform_int(1, 90);
    t.rect = 64;
    std::set<std::pair<int, int>> seen;
    std::vector<std::vector<int>> slot_writes(t.tiles, std::vector<int>(t.slots(), 0));
    for (long long u = 0; u < t.rectangles(); ++u) {
      int i = -1, j = -1;
      mutual_rectangle(t, u, i, j);
      ASSERT_TRUE(0 <= i && i <= j && j < t.tiles) << "u " << u << " -> " << i << "," << j;
      EXPECT_TRUE(seen.insert({i, j}).second) << "rectangle " << i << "," << j << " twice";
      ++slot_writes[i][j + 1];
      ++slot_writes[j][i];
    }
    EXPECT_EQ(static_cast<long long>(seen.size()), static_cast<long long>(t.tiles) * (t.tiles + 1) / 2);
    for (int tile = 0; tile < t.tiles; ++tile)
      for (int slot = 0; slot < t.slots(); ++slot)
        EXPECT_EQ(slot_writes[tile][slot], 1) << "tile " << tile << " slot " << slot << " of " << t.tiles;
  }
}

TEST(MutualTiles, ChosenTilesCoverNInWholeRowsWithinTheCap) {
  TestRng rng;
  for (int trial = 0; trial < 60; ++trial) {
    const int n = rng.uniform_int(1, 400000);
    const int row = 32 << rng.uniform_int(0, 3);
    const int max_tiles = rng.uniform_int(1, 128);
    const MutualTiles t = choose_mutual_tiles(n, row, rng.uniform_int(1, 4000), max_tiles);
    SCOPED_TRACE("n " + std::to_string(n) + " row " + std::to_string(row) + " max " + std::to_string(max_tiles));
    EXPECT_EQ(t.rect % row, 0);
    EXPECT_GE(static_cast<long long>(t.tiles) * t.rect, n);
    EXPECT_LT(static_cast<long long>(t.tiles - 1) * t.rect, n);
    EXPECT_LE(t.tiles, max_tiles);
  }
}

// N within a row of INT_MAX (the largest --particles a state can hold): the tiles still cover N in whole
// rows, and the search stays small. The sizes once wrapped around int into one-row tiles, whose search
// over 10^14 rectangles never ended (BackendFactory.TooLargeNOnCudaIsARuntimeFailure on an H200).
TEST(MutualTiles, NearIntMaxTheTilesCoverNWithoutWrapping) {
  TestRng rng;
  for (int trial = 0; trial < 8; ++trial) {
    const int n = INT_MAX - rng.uniform_int(0, 200);
    const int row = 32 << rng.uniform_int(0, 3);
    const int max_tiles = rng.uniform_int(1, 4);
    const MutualTiles t = choose_mutual_tiles(n, row, rng.uniform_int(1, 4000), max_tiles);
    SCOPED_TRACE("n " + std::to_string(n) + " row " + std::to_string(row) + " max " + std::to_string(max_tiles));
    EXPECT_EQ(t.rect % row, 0);
    EXPECT_GT(t.rect, 0);
    EXPECT_GE(static_cast<long long>(t.tiles) * t.rect, n);
    EXPECT_LT(static_cast<long long>(t.tiles - 1) * t.rect, n);
    EXPECT_LE(t.tiles, std::max(max_tiles, 2));  // one tile of rect <= INT_MAX may not hold n: two then
  }
}

// dv = dt a for every body against long-double sums: recursive summation of m terms errs by at most
// (m - 1) u sum |term| (Higham, Accuracy and Stability, 4.2); a body's pull is at most N pair terms plus
// tiles + 1 slot sums, each term carrying a few roundings of its own (difference, r^2, rsqrt, products):
// (N + 64) u sum |term| covers them all, and a pair lost or doubled is a whole term, far outside.
template <class Real>
void expect_kicks_match_long_double(const std::vector<ParticleRecord<Real>>& before,
                                    const std::vector<ParticleRecord<Real>>& after, const SimParams& params) {
  const int n = static_cast<int>(before.size());
  const long double u = std::ldexp(1.0L, -std::numeric_limits<Real>::digits);
  const long double eps2 = softening_squared<Real>(params);
  for (int i = 0; i < n; ++i) {
    long double sum[3] = {0, 0, 0}, magnitude[3] = {0, 0, 0};
    for (int j = 0; j < n; ++j) {
      const long double d[3] = {(long double)before[j].x - before[i].x, (long double)before[j].y - before[i].y,
                                (long double)before[j].z - before[i].z};
      const long double r2 = eps2 + d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const long double s = before[j].mass / (r2 * std::sqrt(r2));
      for (int a = 0; a < 3; ++a) {
        sum[a] += d[a] * s;
        magnitude[a] += std::fabs(d[a] * s);
      }
    }
    const long double kick[3] = {(long double)after[i].vx - before[i].vx, (long double)after[i].vy - before[i].vy,
                                 (long double)after[i].vz - before[i].vz};
    const long double v[3] = {before[i].vx, before[i].vy, before[i].vz};
    const long double dt = static_cast<Real>(params.dt);
    for (int a = 0; a < 3; ++a) {
      const long double bound = (n + 64) * u * dt * magnitude[a] + 2 * u * (std::fabs(v[a]) + dt * magnitude[a]);
      ASSERT_LE(std::fabs(kick[a] - dt * sum[a]), bound) << "N " << n << " body " << i << " axis " << a;
    }
  }
}

// The physics of a mutual step; the backends are set to the mutual method where they are made.
SimParams mutual_step(TestRng& rng) {
  SimParams params;
  params.dt = rng.uniform(0.01f, 0.2f);
  params.softening = rng.uniform(0.01f, 0.2f);
  return params;
}

TEST(CpuMutual, KicksMatchLongDoubleSumsAtRandomAndOddSizes) {
  TestRng rng;
  for (int n : {1, 2, 3, 63, 65, 1023, 1025, rng.uniform_int(4, 1500), rng.uniform_int(4, 1500)}) {
    const SimParams params = mutual_step(rng);
    const Layout layout = testing::random_layout(rng);
    const int threads = rng.uniform_int(1, 4);
    SCOPED_TRACE(std::string(to_string(layout)) + ", " + std::to_string(threads) + " threads");
    if (rng.uniform_int(0, 1) == 0) {
      const std::vector<Particle> before = testing::random_particles(rng, n);
      CpuBackend cpu(n, layout, threads);
      cpu.upload(before);
      cpu.set_force_method(ForceMethod::MutualAllPairs);
      cpu.step(params, 0.0);
      expect_kicks_match_long_double(before, cpu.download(), params);
    } else {
      const std::vector<ParticleF64> before = testing::random_particles_wide(rng, n);
      CpuBackend cpu(n, layout, threads, Precision::Fp64);
      cpu.upload(before);
      cpu.set_force_method(ForceMethod::MutualAllPairs);
      cpu.step(params, 0.0);
      expect_kicks_match_long_double(before, cpu.download_f64(), params);
    }
  }
}

TEST(CpuMutual, EveryLayoutAndThreadCountGivesTheSameBits) {
  TestRng rng;
  const int n = rng.uniform_int(500, 3000);
  const std::vector<Particle> state = testing::random_particles(rng, n);
  const SimParams params = mutual_step(rng);
  std::vector<Particle> first;
  for (Layout layout : kAllLayouts) {
    for (int threads : {1, rng.uniform_int(2, 5)}) {
      CpuBackend cpu(n, layout, threads);
      cpu.upload(state);
      cpu.set_force_method(ForceMethod::MutualAllPairs);
      cpu.step(params, 0.0);
      const std::vector<Particle> got = cpu.download();
      if (first.empty())
        first = got;
      else
        EXPECT_TRUE(testing::bitwise_equal(got, first)) << to_string(layout) << ", " << threads << " threads, N " << n;
    }
  }
}

// Total momentum change sum m_i dv_i: exactly 0 in exact arithmetic, since the pair terms cancel. Each
// body's dv errs by at most its summation bound above (e_i), so |sum m_i dv_i| <= sum m_i e_i. Measured in
// long double from the float state; the one-sided scheme is held to the same bound, and both are printed.
TEST(CpuMutual, MomentumChangeStaysWithinTheSummationBound) {
  TestRng rng;
  const int n = rng.uniform_int(800, 2000);
  const std::vector<Particle> before = testing::random_particles(rng, n);
  SimParams params = mutual_step(rng);
  const long double u = std::ldexp(1.0L, -24);
  const long double eps2 = softening_squared<float>(params);
  long double bound = 0;
  for (int i = 0; i < n; ++i) {
    long double magnitude = 0;
    for (int j = 0; j < n; ++j) {
      const long double d[3] = {(long double)before[j].x - before[i].x, (long double)before[j].y - before[i].y,
                                (long double)before[j].z - before[i].z};
      const long double r2 = eps2 + d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      magnitude += before[j].mass * std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) / (r2 * std::sqrt(r2));
    }
    const long double speed = std::fabs(before[i].vx) + std::fabs(before[i].vy) + std::fabs(before[i].vz);
    bound += before[i].mass * ((n + 64) * u * params.dt * magnitude + 2 * u * speed);
  }
  for (ForceMethod method : {ForceMethod::MutualAllPairs, ForceMethod::OneSidedAllPairs}) {
    CpuBackend cpu(n, Layout::SoA, 2, Precision::Fp32, CpuTarget::Scalar);
    cpu.upload(before);
    cpu.set_force_method(method);
    cpu.step(params, 0.0);
    const std::vector<Particle> after = cpu.download();
    long double p[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
      p[0] += before[i].mass * ((long double)after[i].vx - before[i].vx);
      p[1] += before[i].mass * ((long double)after[i].vy - before[i].vy);
      p[2] += before[i].mass * ((long double)after[i].vz - before[i].vz);
    }
    const long double change = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    std::printf("momentum change, %s, N %d: %.3Le (bound %.3Le)\n",
                std::string(method_info(method).name).c_str(), n, change, bound);
    EXPECT_LE(change, bound) << method_info(method).name << " N " << n;
  }
}

}  // namespace
}  // namespace coalesce
