// The CPU's facts (sim/cpu_info.h): the rules on values of the test's own, and what this machine reports.
#include <gtest/gtest.h>

#include <thread>

#include "sim/cpu_info.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

TEST(CpuInfo, CacheSizesParseWithTheirUnits) {
  testing::TestRng rng;
  const std::size_t n = static_cast<std::size_t>(rng.uniform_int(1, 100000));
  EXPECT_EQ(parse_cache_size(std::to_string(n) + "K"), n << 10);
  EXPECT_EQ(parse_cache_size(std::to_string(n) + "M"), n << 20);
  EXPECT_EQ(parse_cache_size(std::to_string(n)), n);
  for (const std::string& bad : {std::string(), std::string("K"), std::string("0K"), std::to_string(n) + "X",
                                 std::string("-") + std::to_string(n) + "K", std::to_string(n) + "KB"})
    EXPECT_FALSE(parse_cache_size(bad)) << "'" << bad << "'";
}

TEST(CpuInfo, CopyBufferIsFourCachesWithinItsBounds) {
  testing::TestRng rng;
  EXPECT_EQ(cpu_copy_buffer_bytes(std::nullopt), 256 * kMiB);
  for (int trial = 0; trial < 100; ++trial) {
    const std::size_t cache = static_cast<std::size_t>(rng.uniform_int(1, 1 << 20)) << 10;  // 1 KiB..1 GiB
    const std::size_t bytes = cpu_copy_buffer_bytes(cache);
    SCOPED_TRACE("cache " + std::to_string(cache) + " B: buffer " + std::to_string(bytes) + " B");
    EXPECT_EQ(bytes % kMiB, 0u);
    EXPECT_GE(bytes, 64 * kMiB);
    EXPECT_LE(bytes, 1024 * kMiB);
    if (4 * cache >= 64 * kMiB && 4 * cache <= 1024 * kMiB) EXPECT_EQ(bytes, 4 * cache / kMiB * kMiB);
  }
}

TEST(CpuInfo, IssueLimitFollowsItsFormulaAndIsUnknownWithoutItsTerms) {
  testing::TestRng rng;
  CpuFacts f;
  f.threads = rng.uniform_int(1, 256);
  f.cores = rng.uniform_int(1, 256);
  f.clock_mhz = rng.uniform(500.0f, 6000.0f);
  f.issue_width = rng.uniform_int(1, 8);
  f.interactions_per_iteration = rng.uniform_int(1, 16);
  f.instructions_per_iteration = rng.uniform_int(10, 100);
  const double cores = std::min(f.threads, *f.cores);
  ASSERT_TRUE(cpu_issue_limit(f));
  EXPECT_NEAR(*cpu_issue_limit(f),
              cores * *f.clock_mhz * 1e6 * f.issue_width * f.interactions_per_iteration / *f.instructions_per_iteration,
              1e-9 * *cpu_issue_limit(f));
  CpuFacts no_clock = f;
  no_clock.clock_mhz.reset();
  EXPECT_FALSE(cpu_issue_limit(no_clock));
  CpuFacts uncounted = f;
  uncounted.instructions_per_iteration.reset();
  EXPECT_FALSE(cpu_issue_limit(uncounted));
}

TEST(CpuInfo, ThisMachinesFactsHangTogether) {
  const CpuFacts& f = cpu_facts();
  const unsigned hardware = std::thread::hardware_concurrency();
  EXPECT_EQ(f.threads, hardware > 0 ? static_cast<int>(hardware) : 1);
  EXPECT_EQ(f.copy.threads, f.threads);  // the copy uses every thread the kernels use
  if (f.cores) EXPECT_LE(*f.cores, f.threads);
  EXPECT_EQ(f.copy.buffer_bytes, cpu_copy_buffer_bytes(f.last_level_cache_bytes));
  if (f.last_level_cache_bytes) EXPECT_GT(f.copy.buffer_bytes, *f.last_level_cache_bytes);
  EXPECT_EQ(f.issue_limit, cpu_issue_limit(f));
  EXPECT_EQ(f.clock_mhz.has_value(), !f.clock_source.empty());
  const DeviceInfo d = cpu_device_info();
  EXPECT_FALSE(d.gpu);
  ASSERT_TRUE(d.cpu);
  // The median of the timed copies lies within their range; the ceiling is that median.
  EXPECT_GT(f.copy.min_gbps, 0.0);
  EXPECT_LE(f.copy.min_gbps, d.copy_peak_gbps);
  EXPECT_GE(f.copy.max_gbps, d.copy_peak_gbps);
  EXPECT_FALSE(d.sm_clock_khz || d.memory_clock_khz || d.bus_width_bits || d.theoretical_peak_gbps);
}

}  // namespace
}  // namespace coalesce
