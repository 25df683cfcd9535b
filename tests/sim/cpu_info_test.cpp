// The CPU's facts (sim/cpu_info.h): the rules on values of the test's own, and what this machine reports.
#include <gtest/gtest.h>

#include "sim/cpu_info.h"
#include "sim/usable_cpus.h"
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

// A row's ceiling moves the row's bytes through two buffers of whole cache lines, never larger than the
// start-up ones (issue 41); the row runs from the cache when both buffers fit in it.
TEST(CpuInfo, ARowsCeilingIsItsOwnSizeUpToTheStartUpOne) {
  testing::TestRng rng;
  const std::size_t startup = cpu_copy_buffer_bytes(static_cast<std::size_t>(rng.uniform_int(1, 64)) * kMiB);
  for (int trial = 0; trial < 100; ++trial) {
    const CeilingInfo& c = kCeilingTable[static_cast<std::size_t>(rng.uniform_int(0, kCeilingCount - 1))];
    const double row_bytes = rng.uniform(1.0f, 4.0f * static_cast<float>(startup));
    const std::size_t buffer = cpu_ceiling_buffer_bytes(c.ceiling, row_bytes, startup);
    const double counted = static_cast<double>(c.buffers_read + c.buffers_written);
    SCOPED_TRACE(std::string(c.name) + " row " + std::to_string(row_bytes) + " B: buffer " +
                 std::to_string(buffer));
    EXPECT_EQ(buffer % 64, 0u);
    EXPECT_GE(buffer, 64u);
    EXPECT_LE(buffer, startup);
    if (row_bytes / counted >= static_cast<double>(startup)) {
      EXPECT_EQ(buffer, startup);
    } else if (row_bytes / counted >= 64) {
      EXPECT_LE(counted * buffer, row_bytes);
      EXPECT_GT(counted * (buffer + 64), row_bytes);
    }
  }
  const std::size_t cache = static_cast<std::size_t>(rng.uniform_int(1, 512)) * kMiB;
  EXPECT_EQ(fits_in_cache(cache / 2, cache), true);
  EXPECT_EQ(fits_in_cache(cache / 2 + 64, cache), false);
  EXPECT_EQ(fits_in_cache(64, std::nullopt), std::nullopt);
}

TEST(CpuInfo, IssueLimitFollowsItsFormulaAndIsUnknownWithoutItsTerms) {
  testing::TestRng rng;
  CpuFacts f;
  f.threads = rng.uniform_int(1, 256);
  f.cores = rng.uniform_int(1, 256);
  f.clock_mhz = rng.uniform(500.0f, 6000.0f);
  f.fp_pipes = rng.uniform_int(1, 4);
  f.fp_pipe_bits = 128 << rng.uniform_int(0, 2);        // 128, 256 or 512
  f.vector_bits = rng.uniform_int(0, 1) * (128 << rng.uniform_int(0, 2));  // scalar, or a register
  const Precision precision = rng.uniform_int(0, 1) == 0 ? Precision::Fp32 : Precision::Fp64;
  CpuForceLoop& loop = f.force_loop(precision);
  loop.interactions_per_iteration = rng.uniform_int(1, 32);
  loop.fp_pipe_instructions = rng.uniform_int(5, 60);
  // Half the time a cgroup quota, which caps the cores counted even where it is fractional.
  if (rng.uniform_int(0, 1) == 1) f.cpu_quota = rng.uniform(0.1f, 300.0f);
  const double cores = std::min<double>(std::min(f.threads, *f.cores), f.cpu_quota.value_or(1e9));
  EXPECT_DOUBLE_EQ(cpu_cores_used(f), cores);
  // A register wider than a pipe occupies width / pipe_bits pipes; narrower ones take a whole pipe each.
  const int bits = f.vector_bits > 0 ? f.vector_bits : (precision == Precision::Fp32 ? 32 : 64);
  const double per_cycle = bits > f.fp_pipe_bits ? f.fp_pipes * f.fp_pipe_bits / double(bits) : f.fp_pipes;
  EXPECT_DOUBLE_EQ(fp_pipe_instructions_per_cycle(f, precision), per_cycle);
  ASSERT_TRUE(cpu_issue_limit(f, precision));
  EXPECT_NEAR(*cpu_issue_limit(f, precision),
              cores * *f.clock_mhz * 1e6 * per_cycle * loop.interactions_per_iteration / *loop.fp_pipe_instructions,
              1e-9 * *cpu_issue_limit(f, precision));
  CpuFacts no_clock = f;
  no_clock.clock_mhz.reset();
  EXPECT_FALSE(cpu_issue_limit(no_clock, precision));
  CpuFacts uncounted = f;
  uncounted.force_loop(precision).fp_pipe_instructions.reset();
  EXPECT_FALSE(cpu_issue_limit(uncounted, precision));
}

TEST(CpuInfo, ThisMachinesFactsHangTogether) {
  const CpuFacts& f = cpu_facts();
  EXPECT_EQ(f.threads, usable_cpus().count);  // affinity and quota: not every CPU the machine has
  EXPECT_EQ(f.threads_rule, usable_cpus().describe());
  EXPECT_EQ(f.copy.threads, f.threads);  // the copy uses every thread the kernels use
  if (f.cores) EXPECT_LE(*f.cores, f.threads);
  EXPECT_EQ(f.copy.buffer_bytes, cpu_copy_buffer_bytes(f.last_level_cache_bytes));
  if (f.last_level_cache_bytes) EXPECT_GT(f.copy.buffer_bytes, *f.last_level_cache_bytes);
  for (const CpuTargetInfo& row : kCpuTargetTable) {
    if (!cpu_target_supported(row.target)) continue;
    const CpuFacts t = cpu_facts(row.target);
    EXPECT_EQ(t.target, row.name);
    for (Precision p : kAllPrecisions) EXPECT_EQ(t.force_loop(p).issue_limit, cpu_issue_limit(t, p));
  }
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
