// Article 001's vector-add index patterns are permutations: every pattern must give c = a + b everywhere.
#include <gtest/gtest.h>

#include "kernels/lab/lab_kernels.h"
#include "tests/kernels/lab/lab_test_util.h"

namespace coalesce::lab {
namespace {

using testing::random_floats;
using testing::random_size;
using testing::TestRng;

TEST(LabVectorAdd, EveryLanePatternAddsEveryElement) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = random_size(rng, 1024, 300000, 32);
  const std::vector<float> a = random_floats(rng, n), b = random_floats(rng, n);
  for (LanePattern p : {LanePattern::Coalesced, LanePattern::Swapped, LanePattern::Shifted}) {
    const std::vector<float> c = run_vector_add(p, a, b);
    ASSERT_EQ(c.size(), a.size());
    for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "pattern " << int(p) << ", element " << i;
  }
}

}  // namespace
}  // namespace coalesce::lab
