// The bank-conflict kernel: whatever the stride, thread t must sum its word iterations times.
#include <gtest/gtest.h>

#include "kernels/lab/lab_kernels.h"
#include "tests/kernels/lab/lab_test_util.h"

namespace coalesce::lab {
namespace {

using testing::TestRng;

TEST(LabBanks, EveryStrideSumsTheLanesWord) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  // Small integers keep iterations * word exact in float, so the comparison can be exact.
  std::vector<float> table(kBankTableWords);
  for (float& w : table) w = float(rng.uniform_int(1, 15));
  const int threads = 256 * rng.uniform_int(1, 8);
  const int iterations = 4 * rng.uniform_int(1, 64);
  for (int stride : {1, 2, 4, 8, 16, 32, 33}) {
    const std::vector<float> out = run_bank_kernel(stride, table, threads, iterations);
    ASSERT_EQ(out.size(), std::size_t(threads));
    for (int t = 0; t < threads; ++t)
      ASSERT_EQ(out[t], float(iterations) * table[((t % 32) * stride) % kBankTableWords])
          << "stride " << stride << ", thread " << t;
  }
}

}  // namespace
}  // namespace coalesce::lab
