// The CPU's one gather of the sources (sim/cpu_sources.h): the SIMD solvers' rows and the ranks' export read
// every body alike, the rows are padded with zeros to whole SIMD blocks, aligned, and their reach is exact.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "sim/cpu_sources.h"
#include "sim/layout_storage.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

template <class View>
void expect_rows_hold_the_state(const View& view, const Sources& sources, int n) {
  using Real = typename View::Scalar;
  ASSERT_NE(sources.rows, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(sources.rows) % 64, 0u) << "the aligned loads need 64 bytes";
  EXPECT_EQ(sources.stride % kSimdBlock, 0u);
  EXPECT_GE(sources.stride, static_cast<std::size_t>(n));
  EXPECT_LT(sources.stride, static_cast<std::size_t>(n) + kSimdBlock);
  const Real* x = static_cast<const Real*>(sources.rows);
  const Real *y = x + sources.stride, *z = y + sources.stride, *m = z + sources.stride;
  Real reach = 0;
  for (int i = 0; i < n; ++i) {
    const Vec4T<Real> pm = view.position_mass(i);
    ASSERT_EQ(x[i], pm.x) << "body " << i;
    ASSERT_EQ(y[i], pm.y) << "body " << i;
    ASSERT_EQ(z[i], pm.z) << "body " << i;
    ASSERT_EQ(m[i], pm.w) << "body " << i;
    reach = std::max({reach, std::fabs(pm.x), std::fabs(pm.y), std::fabs(pm.z)});
  }
  for (std::size_t i = static_cast<std::size_t>(n); i < sources.stride; ++i)
    ASSERT_TRUE(x[i] == 0 && y[i] == 0 && z[i] == 0 && m[i] == 0) << "padding " << i << " is not zero";
  EXPECT_EQ(sources.reach, static_cast<double>(reach));
}

TEST(CpuSources, RowsAndExportReadEveryBodyAlike) {
  TestRng rng;
  ThreadPool pool(rng.uniform_int(1, 3));
  SourceRows rows;  // one owner across the trials: grown, then reused
  for (int trial = 0; trial < 12; ++trial) {
    const int n = rng.uniform_int(1, 3 * kSimdBlock + 7);
    const Layout layout = testing::random_layout(rng);
    const Precision precision = testing::random_precision(rng);
    SCOPED_TRACE("N " + std::to_string(n) + ", " + std::string(to_string(layout)) + " " +
                 std::string(to_string(precision)));
    std::vector<Double4> storage((state_bytes(layout, precision, n) + sizeof(Double4) - 1) / sizeof(Double4));
    const StateViews state = make_state_views(layout, precision, storage.data(), n);
    const std::vector<ParticleF64> records = testing::random_particles_wide(rng, n);
    with_view(state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      for (int i = 0; i < n; ++i) view.store(i, record_cast<Real>(records[static_cast<std::size_t>(i)]));
      expect_rows_hold_the_state(view, rows.gather(pool, view, state, n), n);
      // The ranks' export through the same gather: a random range, each body in its place.
      const int begin = rng.uniform_int(0, n), end = rng.uniform_int(begin, n);
      std::vector<Vec4T<Real>> exported(static_cast<std::size_t>(n), Vec4T<Real>{-1, -1, -1, -1});
      gather_sources(pool, view, begin, end, [&](int i, const Vec4T<Real>& pm) { exported[i] = pm; });
      for (int i = 0; i < n; ++i) {
        const Vec4T<Real> want = i >= begin && i < end ? view.position_mass(i) : Vec4T<Real>{-1, -1, -1, -1};
        const Vec4T<Real> got = exported[static_cast<std::size_t>(i)];
        ASSERT_TRUE(got.x == want.x && got.y == want.y && got.z == want.z && got.w == want.w) << "body " << i;
      }
    });
  }
}

}  // namespace
}  // namespace coalesce
