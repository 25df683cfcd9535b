// Layout conversion on the device keeps every bit, across any sequence of switches.
#include <gtest/gtest.h>

#include "kernels/cuda_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::bitwise_equal;
using testing::TestRng;

TEST(CudaConvert, EveryPairOfLayoutsIsBitwiseAtOddSizes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : testing::odd_sizes()) {
    const std::vector<Particle> state = testing::random_particles(rng, n);
    for (Layout from : kAllLayouts) {
      for (Layout to : kAllLayouts) {
        CudaBackend backend(n, from);
        backend.upload(state);
        backend.set_layout(to);
        EXPECT_EQ(backend.layout(), to);
        EXPECT_TRUE(bitwise_equal(backend.download(), state))
            << "N=" << n << " " << to_string(from) << " -> " << to_string(to);
      }
    }
  }
}

TEST(CudaConvert, ThousandRandomSwitchesKeepTheStateBitwise) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = rng.uniform_int(1000, 5000);
  const std::vector<Particle> state = testing::random_particles(rng, n);
  CudaBackend backend(n, Layout::AoS);
  backend.upload(state);
  const int switches = testing::size_or_quick(1000, 30);
  for (int i = 0; i < switches; ++i) backend.set_layout(testing::random_layout(rng));
  EXPECT_TRUE(bitwise_equal(backend.download(), state)) << "N=" << n << " after " << switches << " switches";
}

TEST(CudaConvert, ConversionIsTimedWithTheFormulaBytes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = 4099;
  CudaBackend backend(n, Layout::SoA);
  backend.upload(testing::random_particles(rng, n));
  backend.set_layout(Layout::Float4);
  backend.synchronize();
  const std::vector<KernelTiming> timings = backend.poll_timings();
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].kernel, KernelKind::Convert);
  EXPECT_EQ(timings[0].layout, Layout::Float4);
  EXPECT_DOUBLE_EQ(timings[0].bytes, 4099.0 * (28 + 32));
  EXPECT_GT(timings[0].milliseconds, 0.0);
}

}  // namespace
}  // namespace coalesce
