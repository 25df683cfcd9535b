// Device facts and the memory check (the backend factory's rules: tests/app/backend_factory_test.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "kernels/cuda_backend.h"
#include "kernels/device_probe.h"
#include "sim/layout.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

TEST(CudaDevice, EstimateCountsStateRenderAndScratch) {
  testing::TestRng rng;
  const int n = rng.uniform_int(1, 1 << 20);
  std::size_t largest_record = 0;
  for (const LayoutInfo& row : kLayoutTable)
    largest_record =
        std::max(largest_record, static_cast<std::size_t>(layout_bytes(row.layout, Precision::Fp32).record));
  const DeviceMemoryEstimate e = estimate_device_memory(n);
  EXPECT_EQ(e.state, largest_record * n) << "the state holds any layout, so a switch never reallocates";
  EXPECT_EQ(e.render, kRenderFloatsPerParticle * sizeof(float) * n) << "x, y, z, speed per particle";
  EXPECT_EQ(e.scratch, e.state);
  EXPECT_EQ(estimate_device_memory(INT_MAX).total(), (2 * largest_record + kRenderFloatsPerParticle * sizeof(float)) * INT_MAX)
      << "no 32-bit overflow";
}

TEST(CudaDevice, InfoHasClocksPeakAndMeasuredCopyCeiling) {
  COALESCE_REQUIRE_CUDA();
  CudaBackend gpu(1024, Layout::SoA);
  const DeviceInfo& info = gpu.device_info();
  EXPECT_FALSE(info.name.empty());
  EXPECT_TRUE(info.gpu);
  // "13.0": the CUDA versions of the driver and of the runtime this build links.
  for (const std::string& version : {info.cuda_driver, info.cuda_runtime}) {
    EXPECT_GT(version.size(), 2u) << version;
    EXPECT_NE(version.find('.'), std::string::npos) << version;
  }
  EXPECT_GT(info.multiprocessors, 0);
  ASSERT_TRUE(info.memory_clock_khz && info.bus_width_bits && info.theoretical_peak_gbps);
  EXPECT_GT(*info.memory_clock_khz, 0);
  EXPECT_GT(*info.bus_width_bits, 0);
  EXPECT_NEAR(*info.theoretical_peak_gbps,
              2.0 * *info.memory_clock_khz * 1e3 * *info.bus_width_bits / 8 / 1e9, 1e-6);
  EXPECT_GT(info.copy_peak_gbps, 0.0);
  // A copy can approach but not beat the memory's theoretical peak.
  EXPECT_LT(info.copy_peak_gbps, 1.05 * *info.theoretical_peak_gbps);
  EXPECT_NE(gpu.name().find(info.name), std::string::npos);
}

TEST(CudaDevice, TooLargeNFailsWithBytesNeededAndAvailable) {
  COALESCE_REQUIRE_CUDA();
  try {
    CudaBackend gpu(INT_MAX, Layout::Float4);  // 80 B x 2^31: more than any current GPU holds
    FAIL() << "expected DeviceMemoryError";
  } catch (const DeviceMemoryError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("needs"), std::string::npos) << message;
    EXPECT_NE(message.find("free"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(estimate_device_memory(INT_MAX).total())), std::string::npos)
        << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line";
  }
}

TEST(CudaDevice, PollNeverReportsALaunchTwiceAndKeepsOrder) {
  COALESCE_REQUIRE_CUDA();
  CudaBackend gpu(4096, Layout::AoS);
  gpu.set_force_method(ForceMethod::Attractors);
  const SimParams params;
  std::vector<KernelTiming> all;
  for (int i = 0; i < 10; ++i) {
    gpu.step(params, 0.0);
    for (const KernelTiming& t : gpu.poll_timings()) all.push_back(t);  // whatever is done, never waiting
  }
  gpu.synchronize();
  for (const KernelTiming& t : gpu.poll_timings()) all.push_back(t);
  ASSERT_EQ(all.size(), 20u);
  for (std::size_t i = 0; i < all.size(); ++i)
    EXPECT_EQ(all[i].kernel, i % 2 == 0 ? KernelKind::Forces : KernelKind::Integrate);
}

}  // namespace
}  // namespace coalesce
