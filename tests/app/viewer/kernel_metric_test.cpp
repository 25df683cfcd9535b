// Which figure the panel and the JSON headline per kernel: interactions/s for all-pairs forces only.
#include <gtest/gtest.h>

#include "app/viewer/viewer_stats.h"
#include "sim/force_method.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

TEST(KernelMetric, OnlyAllPairsForcesAreJudgedByInteractions) {
  for (const ForceMethodInfo& row : kForceMethodTable) {
    for (KernelKind kind :
         {KernelKind::Forces, KernelKind::Integrate, KernelKind::Pack, KernelKind::Convert}) {
      // What the rows decide: pair gravity counts interactions, the attractors move bytes.
      const bool interactions = kind == KernelKind::Forces && row.physics == Physics::PairGravity;
      EXPECT_EQ(headline_metric(kind, row.method),
                interactions ? KernelMetric::InteractionsPerSecond : KernelMetric::GigabytesPerSecond)
          << to_string(kind) << " / " << row.name;
    }
  }
  EXPECT_STREQ(to_string(KernelMetric::InteractionsPerSecond), "interactions_per_second");
}

TEST(InteropCost, AddsThePackKernelOnlyWhenItRunsOnTheGpu) {
  TestRng rng;
  const double frame = rng.uniform(1.0f, 100.0f);
  const double upload = rng.uniform(0.0f, 1.0f);
  const double pack_ms = rng.uniform(0.001f, 1.0f);
  FrameStats frames;
  frames.add(frame, 0.1, upload, 0.5);
  KernelStats pack;
  pack.milliseconds.add(pack_ms);
  const InteropCost gpu = interop_cost(frames, pack, true);
  EXPECT_NEAR(gpu.milliseconds, upload + pack_ms, 1e-9);
  EXPECT_NEAR(gpu.share_of_frame, (upload + pack_ms) / frame, 1e-9);
  const InteropCost host = interop_cost(frames, pack, false);  // pack already inside the upload's wall time
  EXPECT_NEAR(host.milliseconds, upload, 1e-9);
  EXPECT_EQ(interop_cost(FrameStats{}, pack, true).share_of_frame, 0.0) << "no frame yet: no share";
}

}  // namespace
}  // namespace coalesce::testing
