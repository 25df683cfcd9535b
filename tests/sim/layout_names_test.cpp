// The layout table and what is derived from it: names, CLI choice strings, viewer keys, and the one storage
// both backends use (a buffer seen through each layout's view).
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "sim/force_method.h"
#include "sim/layout.h"
#include "sim/layout_storage.h"
#include "tests/support/test_random.h"

namespace coalesce {

TEST(LayoutNames, RoundTrip) {
  for (Layout l : kAllLayouts) EXPECT_EQ(parse_layout(to_string(l)), l);
  for (PackVariant v : kAllPackVariants) EXPECT_EQ(parse_pack_variant(to_string(v)), v);
  EXPECT_EQ(parse_solver_family("all-pairs"), ForceMethod::OneSidedAllPairs);
  EXPECT_EQ(parse_solver_family("attractors"), ForceMethod::Attractors);
  EXPECT_FALSE(parse_layout("AOS").has_value());
  EXPECT_FALSE(parse_pack_variant("").has_value());
}

// The strings --help, the errors and the panel show list every row, in table order.
TEST(LayoutTable, DerivedStringsListEveryRow) {
  std::string choices, list, names, keys;
  for (const LayoutInfo& row : kLayoutTable) {
    const bool first = row.layout == kLayoutTable[0].layout;
    choices += (first ? "" : "|") + std::string(row.name);
    list += (first ? "" : ",") + std::string(row.name);
    names += (first ? "" : ", ") + std::string(row.name);
    keys += (first ? "" : "/") + std::string(1, row.key);
    EXPECT_EQ(layout_for_key(row.key), row.layout);
  }
  EXPECT_EQ(kLayoutChoices, choices);
  EXPECT_EQ(kLayoutList, list);
  EXPECT_EQ(kLayoutNames, names);
  EXPECT_EQ(kLayoutKeys, keys);
  EXPECT_EQ(kAllLayouts.size(), kLayoutCount);
  EXPECT_FALSE(layout_for_key('0').has_value());
}

// Records stored through any layout's view, in either precision, come back bit for bit, the buffer is the
// size the table says, and the largest layout fits any. fp64 stores doubles that float cannot hold.
TEST(LayoutStorage, EveryViewRoundTripsRecords) {
  testing::TestRng rng;
  const int n = rng.uniform_int(1, 3000);
  const std::vector<Particle> state = testing::random_particles(rng, n);
  std::vector<ParticleF64> wide(state.size());
  for (std::size_t i = 0; i < state.size(); ++i) {
    wide[i] = record_cast<double>(state[i]);
    wide[i].x += wide[i].x * 0x1p-40;  // below float's precision: lost by any float on the way
  }
  for (const PrecisionInfo& prec : kPrecisionTable) {
    for (const LayoutInfo& row : kLayoutTable) {
      SCOPED_TRACE(std::string(row.name) + " " + std::string(prec.name));
      EXPECT_EQ(state_bytes(row.layout, prec.precision, n),
                static_cast<std::size_t>(layout_bytes(row.layout, prec.precision).record) * n);
      EXPECT_GE(max_state_bytes(prec.precision, n), state_bytes(row.layout, prec.precision, n));
      std::vector<Double4> buffer((state_bytes(row.layout, prec.precision, n) + sizeof(Double4) - 1) /
                                  sizeof(Double4));
      std::memset(buffer.data(), 0xFF, buffer.size() * sizeof(Double4));  // NaN poison: every field written
      bool exact = true;
      with_view(make_state_views(row.layout, prec.precision, buffer.data(), n), [&](const auto& view) {
        using Real = typename std::decay_t<decltype(view)>::Scalar;
        EXPECT_EQ(view.kLayout, row.layout);
        std::vector<ParticleRecord<Real>> in(state.size());
        for (std::size_t i = 0; i < in.size(); ++i)
          in[i] = sizeof(Real) == 8 ? record_cast<Real>(wide[i]) : record_cast<Real>(state[i]);
        for (int i = 0; i < n; ++i) view.store(i, in[static_cast<std::size_t>(i)]);
        std::vector<ParticleRecord<Real>> back(in.size());
        for (int i = 0; i < n; ++i) back[static_cast<std::size_t>(i)] = load_particle(view, i);
        exact = testing::bitwise_equal(back, in);
        const int i = rng.uniform_int(0, n - 1);
        const auto p = view.position(i), v = view.velocity(i);
        const ParticleRecord<Real>& s = in[static_cast<std::size_t>(i)];
        EXPECT_TRUE(p.x == s.x && p.y == s.y && p.z == s.z && v.x == s.vx && v.y == s.vy && v.z == s.vz &&
                    view.mass(i) == s.mass);
      });
      EXPECT_TRUE(exact);
    }
  }
}

}  // namespace coalesce
