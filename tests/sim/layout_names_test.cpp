// Layout, pack-variant and solver names round-trip through their parsers.
#include <gtest/gtest.h>

#include "sim/layout.h"

namespace coalesce {

TEST(LayoutNames, RoundTrip) {
  for (Layout l : kAllLayouts) EXPECT_EQ(parse_layout(to_string(l)), l);
  for (PackVariant v : kAllPackVariants) EXPECT_EQ(parse_pack_variant(to_string(v)), v);
  EXPECT_EQ(parse_solver("all-pairs"), Solver::AllPairs);
  EXPECT_EQ(parse_solver("attractors"), Solver::Attractors);
  EXPECT_FALSE(parse_layout("AOS").has_value());
  EXPECT_FALSE(parse_pack_variant("").has_value());
}

}  // namespace coalesce
