// The hardware counters on a GPU: the counter pass against a copy's byte formula (through the lab's copy
// experiment, the path `coalesce lab` takes), the PM sampler against a copy's timed rate, and without a
// device or without CUPTI, one line that says why. Skips with "skipped: no CUDA device" where there is none.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "kernels/counters/hardware_counters.h"
#include "kernels/cuda_check.h"
#include "kernels/cuda_event.h"
#include "kernels/device_buffer.h"
#include "kernels/lab/lab_experiments.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

// Without a pass on a GPU: compute-sanitizer and CUPTI's profiler may not share a process, so under the
// sanitizer runs (COALESCE_SANITIZER_QUICK) the test says so and skips; anywhere else it fails.
#define COALESCE_REQUIRE_INSTRUMENT(pointer, why)                                                       \
  do {                                                                                                  \
    if (!(pointer)) {                                                                                   \
      if (::coalesce::testing::sanitizer_quick())                                                       \
        GTEST_SKIP() << "skipped: hardware counters unavailable under compute-sanitizer: " << (why);    \
      FAIL() << (why);                                                                                  \
    }                                                                                                   \
  } while (0)

TEST(Counters, WithoutADeviceSayWhyInOneLine) {
  if (::coalesce::testing::cuda_available()) GTEST_SKIP() << "a CUDA device is present";
  std::string why;
  EXPECT_EQ(make_counter_pass(0, why), nullptr);
  EXPECT_NE(why.find("hardware counters unavailable"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  std::string sampler_why;
  EXPECT_EQ(make_hardware_sampler(0, 10.0, sampler_why), nullptr);
  EXPECT_FALSE(sampler_why.empty());
  const CounterAvailability a = counter_availability(0);
  EXPECT_FALSE(a.available);
  EXPECT_EQ(a.reason, why);
}

TEST(Counters, SamplerRefusesABadInterval) {
  std::string why;
  EXPECT_EQ(make_hardware_sampler(0, -1.0, why), nullptr);
  EXPECT_NE(why.find("interval"), std::string::npos) << why;
}

TEST(Counters, CombineSumsCountsAndWeighsClocksByTime) {
  testing::TestRng rng;
  RowCounters a, b;
  a.dram_read_bytes = rng.uniform(1, 1e6);
  b.dram_read_bytes = rng.uniform(1, 1e6);
  a.global_load_requests = rng.uniform(1, 100);
  b.global_load_requests = rng.uniform(1, 100);
  a.sm_clock_hz = rng.uniform(1e9, 2e9);
  b.sm_clock_hz = rng.uniform(1e9, 2e9);
  a.duration_ns = rng.uniform(1, 1000);
  b.duration_ns = rng.uniform(1, 1000);
  const RowCounters c = combine({a, b});
  EXPECT_DOUBLE_EQ(c.dram_read_bytes, a.dram_read_bytes + b.dram_read_bytes);
  EXPECT_DOUBLE_EQ(c.global_load_requests, a.global_load_requests + b.global_load_requests);
  EXPECT_DOUBLE_EQ(c.duration_ns, a.duration_ns + b.duration_ns);
  EXPECT_NEAR(c.sm_clock_hz, (a.sm_clock_hz * a.duration_ns + b.sm_clock_hz * b.duration_ns) / c.duration_ns,
              1.0);
}

// The lab's copy rows at 256 MiB per array (5x the H100's 50 MB L2): the coalesced kernel's DRAM bytes,
// as the hardware counted them, match the formula's 2 x N x 4 B within 5%, 4 sectors per request both ways.
TEST(Counters, CopyKernelMovesTheFormulasBytes) {
  COALESCE_REQUIRE_CUDA();
  std::string why;
  const std::unique_ptr<CounterPass> pass = make_counter_pass(0, why);
  COALESCE_REQUIRE_INSTRUMENT(pass, why);
  testing::TestRng rng;
  lab::LabContext context;
  context.settings.side = testing::size_or_quick(4096, 1024);  // 4 x side^2 floats: 256 MiB per array
  context.settings.repeats = 3;
  context.settings.warmup_calls = 2;
  context.settings.warmup_ms = 0;
  context.settings.seed = static_cast<std::uint32_t>(rng.engine()());
  context.counter_pass = pass.get();
  const std::vector<lab::LabRow> rows = lab::run_copy_experiment(context);
  bool saw_kernel = false;
  for (const lab::LabRow& row : rows) {
    SCOPED_TRACE(row.variant);
    EXPECT_TRUE(row.check_ok);
    if (row.variant == "cudaMemcpy D2D") {  // a copy, not a kernel: the profiler has no range for it
      EXPECT_FALSE(row.counters.available);
      EXPECT_NE(row.counters.reason.find("no kernel"), std::string::npos) << row.counters.reason;
      continue;
    }
    ASSERT_TRUE(row.counters.available) << row.counters.reason;
    const RowCounters& c = row.counters.values;
    const double ratio = (c.dram_read_bytes + c.dram_write_bytes) / row.bytes;
    std::printf("%s: DRAM read %.4g B, write %.4g B, formula %.4g B, ratio %.4f, ld %.2f st %.2f sectors/request, "
                "SM %.0f MHz, DRAM %.0f MHz, %.3f ms\n",
                row.variant.c_str(), c.dram_read_bytes, c.dram_write_bytes, row.bytes, ratio,
                c.global_load_sectors / c.global_load_requests, c.global_store_sectors / c.global_store_requests,
                c.sm_clock_hz / 1e6, c.dram_clock_hz / 1e6, c.duration_ns / 1e6);
    if (row.variant != "coalesced kernel") continue;
    saw_kernel = true;
    if (!testing::sanitizer_quick()) {
      EXPECT_NEAR(ratio, 1.0, 0.05);
    }
    EXPECT_NEAR(c.global_load_sectors / c.global_load_requests, 4.0, 0.05);
    EXPECT_NEAR(c.global_store_sectors / c.global_store_requests, 4.0, 0.05);
    EXPECT_GT(c.sm_clock_hz, 0.0);
    EXPECT_GT(c.dram_clock_hz, 0.0);
  }
  EXPECT_TRUE(saw_kernel);
}

// PM sampling while device-to-device copies run for about 200 ms: the sampled DRAM traffic while busy is
// within a broad band of the copies' timed rate, both clocks are read, and the decodes ran on the
// sampler's own thread (issue 20) while this one launched the copies.
TEST(Counters, SamplerSeesACopysDramRate) {
  COALESCE_REQUIRE_CUDA();
  std::string why;
  const double interval_ms = 5.0;
  const std::unique_ptr<HardwareSampler> sampler = make_hardware_sampler(0, interval_ms, why);
  COALESCE_REQUIRE_INSTRUMENT(sampler, why);
  const std::size_t bytes = std::size_t(testing::size_or_quick(256, 16)) << 20;
  DeviceBuffer<unsigned char> in(bytes), out(bytes);
  COALESCE_CUDA_CHECK(cudaMemset(in.data(), 1, bytes));
  // Drop what came before the copies (the first samples read 0 MHz): the worker decodes every interval.
  std::this_thread::sleep_for(std::chrono::milliseconds(int(4 * interval_ms)));
  (void)sampler->poll();
  CudaEvent start, stop;
  COALESCE_CUDA_CHECK(cudaEventRecord(start.get()));
  int copies = 0;
  const auto begin = std::chrono::steady_clock::now();
  std::vector<HardwareSample> samples;
  while (std::chrono::steady_clock::now() - begin < std::chrono::milliseconds(200)) {
    for (int i = 0; i < 8; ++i, ++copies)
      COALESCE_CUDA_CHECK(cudaMemcpyAsync(out.data(), in.data(), bytes, cudaMemcpyDeviceToDevice));
    COALESCE_CUDA_CHECK(cudaDeviceSynchronize());
    for (const HardwareSample& s : sampler->poll()) samples.push_back(s);
  }
  COALESCE_CUDA_CHECK(cudaEventRecord(stop.get()));
  COALESCE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
  float ms = 0;
  COALESCE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), stop.get()));
  std::this_thread::sleep_for(std::chrono::milliseconds(int(4 * interval_ms)));
  for (const HardwareSample& s : sampler->poll()) samples.push_back(s);
  const double computed = 2.0 * double(bytes) * copies / (ms * 1e-3);
  ASSERT_GE(samples.size(), 10u) << "copies ran " << ms << " ms at " << interval_ms << " ms per sample";
  double busy_sum = 0, peak = 0;
  int busy = 0;
  for (const HardwareSample& s : samples) peak = std::max(peak, s.dram_read_bytes_per_second + s.dram_write_bytes_per_second);
  for (const HardwareSample& s : samples) {
    EXPECT_GT(s.sm_clock_hz, 0.0);
    EXPECT_GT(s.dram_clock_hz, 0.0);
    const double rate = s.dram_read_bytes_per_second + s.dram_write_bytes_per_second;
    if (rate > 0.5 * peak) busy_sum += rate, ++busy;
  }
  const double sampled = busy_sum / std::max(busy, 1);
  std::printf("sampler: %zu samples over %.1f ms of copies (%.3f s to %.3f s), busy mean %.1f GB/s, computed "
              "%.1f GB/s, SM %.0f MHz, DRAM %.0f MHz\n",
              samples.size(), ms, samples.front().seconds, samples.back().seconds, sampled / 1e9, computed / 1e9,
              samples.back().sm_clock_hz / 1e6, samples.back().dram_clock_hz / 1e6);
  EXPECT_GT(sampled, 0.6 * computed);
  EXPECT_LT(sampled, 1.5 * computed);
  for (std::size_t i = 1; i < samples.size(); ++i) EXPECT_GE(samples[i].seconds, samples[i - 1].seconds);
  const std::optional<Summary> decodes = sampler->decode_milliseconds();
  ASSERT_TRUE(decodes.has_value()) << "make_hardware_sampler's sampler decodes on a thread of its own";
  EXPECT_GE(decodes->count, 1);
  std::printf("sampler: %ld decodes on the sampler's thread, %.2f ms mean, %.2f ms max\n", decodes->count,
              decodes->mean(), decodes->max);
}

}  // namespace
}  // namespace coalesce
