// The hardware series the panel plots and the JSON reports, fed by a fake sampler on random data: the
// rings keep the newest, every sample takes the frames of its interval (layout, computed GB/s), the
// summaries cover every sample, the clock note appears beyond 5% only, and a failing sampler says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "app/viewer/viewer_hardware.h"
#include "app/viewer/viewer_stats.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

// Hands out the samples it was given whose interval has ended by `*now` (its own clock), a random
// number of those per poll, as decoding lags; throws once `fail_after` polls ran.
class FakeSampler : public HardwareSampler {
 public:
  FakeSampler(std::vector<HardwareSample> samples, TestRng& rng, const double* now, int fail_after = -1)
      : m_samples(std::move(samples)), m_rng(rng), m_now(now), m_fail_after(fail_after) {}
  std::vector<HardwareSample> poll() override {
    if (m_fail_after >= 0 && m_polls++ >= m_fail_after) throw std::runtime_error("CUPTI said no");
    std::size_t ready = m_next;
    while (ready < m_samples.size() && m_samples[ready].seconds <= *m_now) ++ready;
    const std::size_t n = std::min<std::size_t>(ready - m_next, m_rng.uniform_int(0, 3));
    std::vector<HardwareSample> out(m_samples.begin() + static_cast<long>(m_next),
                                    m_samples.begin() + static_cast<long>(m_next + n));
    m_next += n;
    return out;
  }

 private:
  std::vector<HardwareSample> m_samples;
  TestRng& m_rng;
  const double* m_now;
  int m_fail_after;
  int m_polls = 0;
  std::size_t m_next = 0;
};

DeviceInfo gpu_info(TestRng& rng) {
  DeviceInfo info;
  info.gpu = true;
  info.sm_clock_khz = rng.uniform_int(1000, 2000) * 1000;
  info.memory_clock_khz = rng.uniform_int(1000, 3000) * 1000;
  return info;
}

// Samples every ~interval on the sampler's clock, random rates and clocks.
std::vector<HardwareSample> random_samples(TestRng& rng, int count, double interval) {
  std::vector<HardwareSample> samples;
  double t = 0.0;
  for (int i = 0; i < count; ++i) {
    t += interval * rng.uniform(0.8f, 1.2f);
    samples.push_back({t, rng.uniform(0.0f, 3e12f), rng.uniform(0.0f, 1e12f), rng.uniform(1e9f, 2e9f),
                       rng.uniform(1e9f, 3e9f)});
  }
  return samples;
}

TEST(HardwareSeries, SamplesTakeTheFramesOfTheirIntervalAndSummariesCoverEverySample) {
  TestRng rng;
  const DeviceInfo info = gpu_info(rng);
  const double interval = kHardwareIntervalMs * 1e-3;
  const int count = rng.uniform_int(1100, 1500);  // more than the ring holds
  const std::vector<HardwareSample> samples = random_samples(rng, count, interval);
  const double offset = rng.uniform(0.0f, 5.0f);  // the viewer's clock when the sampler started
  double now = 0.0;                               // the sampler's clock
  ViewerHardware hardware(std::make_unique<FakeSampler>(samples, rng, &now), "", info, offset);
  ASSERT_TRUE(hardware.available());

  // Frames at random steps (some longer than a sample), runs of one layout, some without timings.
  std::vector<ComputedPoint> frames;
  Layout layout = random_layout(rng);
  const double end = samples.back().seconds + offset;
  for (double t = offset; t <= end + interval;) {
    t += interval * rng.uniform(0.05f, 1.5f);
    if (rng.uniform_int(0, 20) == 0) layout = random_layout(rng);
    ComputedPoint frame{t, layout, std::nullopt};
    if (rng.uniform_int(0, 4) != 0) frame.gigabytes_per_second = rng.uniform(0.0f, 3000.0f);
    frames.push_back(frame);
  }
  // As the frame loop does: each frame, then a poll at that time.
  for (const ComputedPoint& frame : frames) {
    hardware.add_frame(frame);
    now = frame.seconds - offset;
    hardware.poll(frame.seconds);
  }
  for (int i = 0; i < 10000 && hardware.series().samples() < count; ++i) hardware.poll(end + 1.0 + i);
  const HardwareSeries& s = hardware.series();
  ASSERT_EQ(s.samples(), count);
  ASSERT_EQ(s.hardware().size(), 1024u) << "the ring keeps the newest 1024";
  EXPECT_DOUBLE_EQ(s.hardware().back().end_seconds, samples.back().seconds + offset);

  // Reference: every sample against every frame, and the summaries over all samples.
  Summary dram;
  std::vector<std::pair<Summary, Summary>> per_layout(kLayoutCount);
  const std::size_t first_kept = samples.size() - s.hardware().size();
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double begin = i == 0 ? samples[0].seconds + offset - interval : samples[i - 1].seconds + offset;
    const double stop = samples[i].seconds + offset;
    const double gbps =
        (samples[i].dram_read_bytes_per_second + samples[i].dram_write_bytes_per_second) * 1e-9;
    dram.add(gbps);
    Summary computed;
    std::optional<Layout> seen;
    bool mixed = false;
    std::optional<Layout> before;  // the last frame's layout at or before the interval's end
    for (const ComputedPoint& f : frames) {
      if (f.seconds <= stop) before = f.layout;
      if (f.seconds <= begin || f.seconds > stop) continue;
      mixed = mixed || (seen && *seen != f.layout);
      seen = f.layout;
      if (f.gigabytes_per_second) computed.add(*f.gigabytes_per_second);
    }
    const std::optional<Layout> expected = mixed ? std::nullopt : (seen ? seen : before);
    if (expected) {
      per_layout[static_cast<int>(*expected)].first.add(gbps);
      if (computed.count > 0) per_layout[static_cast<int>(*expected)].second.add(computed.mean());
    }
    if (i < first_kept) continue;
    const HardwarePoint& p = s.hardware()[i - first_kept];
    ASSERT_NEAR(p.start_seconds, begin, 1e-9) << "sample " << i;
    ASSERT_NEAR(p.dram_gigabytes_per_second(), gbps, 1e-6 * gbps + 1e-12) << "sample " << i;
    ASSERT_EQ(p.layout, expected) << "sample " << i;
    ASSERT_EQ(p.computed_gigabytes_per_second.has_value(), computed.count > 0) << "sample " << i;
    if (computed.count > 0) {
      ASSERT_NEAR(*p.computed_gigabytes_per_second, computed.mean(), 1e-6) << "sample " << i;
    }
    ASSERT_NEAR(p.sm_clock_mhz, samples[i].sm_clock_hz * 1e-6, 1e-6);
  }
  EXPECT_NEAR(s.dram().mean(), dram.mean(), 1e-9 * dram.mean());
  EXPECT_DOUBLE_EQ(s.dram().min, dram.min);
  EXPECT_DOUBLE_EQ(s.dram().max, dram.max);
  for (Layout l : kAllLayouts) {
    const auto& [hw, computed] = per_layout[static_cast<int>(l)];
    EXPECT_EQ(s.layout_summary(l).dram.count, hw.count) << to_string(l);
    EXPECT_NEAR(s.layout_summary(l).dram.mean(), hw.mean(), 1e-9 * (1 + hw.mean())) << to_string(l);
    EXPECT_EQ(s.layout_summary(l).computed.count, computed.count) << to_string(l);
    EXPECT_NEAR(s.layout_summary(l).computed.mean(), computed.mean(), 1e-6) << to_string(l);
  }
  EXPECT_DOUBLE_EQ(s.sm_clock().maximum_mhz, info.sm_clock_khz * 1e-3);
  EXPECT_DOUBLE_EQ(s.dram_clock().maximum_mhz, info.memory_clock_khz * 1e-3);
}

TEST(HardwareSeries, ClockNoteOnlyBeyondFivePercentOfTheMaximum) {
  TestRng rng;
  for (int trial = 0; trial < 200; ++trial) {
    ClockReport clock;
    clock.maximum_mhz = rng.uniform(500.0f, 3000.0f);
    // Away from the 5% edge by 0.1%, where rounding cannot decide.
    const bool outside = rng.uniform_int(0, 1) == 1;
    const double sign = rng.uniform_int(0, 1) == 1 ? 1.0 : -1.0;
    const double off = outside ? rng.uniform(0.051f, 0.5f) : rng.uniform(0.0f, 0.049f);
    // Pairs spread evenly around the mean (some far beyond 5%), so the note is about the average.
    const double mean = clock.maximum_mhz * (1.0 + sign * off);
    for (int pairs = rng.uniform_int(0, 25); pairs > 0; --pairs) {
      const double spread = rng.uniform(0.0f, 0.3f);
      clock.mhz.add(mean * (1.0 + spread));
      clock.mhz.add(mean * (1.0 - spread));
    }
    clock.mhz.add(mean);
    const std::string note = clock_note("SM", clock);
    ASSERT_EQ(!note.empty(), outside) << "maximum " << clock.maximum_mhz << " mean " << clock.mhz.mean();
    if (outside) {
      EXPECT_NE(note.find(sign < 0 ? "below" : "above"), std::string::npos) << note;
    }
  }
  ClockReport unknown;
  unknown.mhz.add(1000.0);
  EXPECT_EQ(clock_note("SM", unknown), "") << "no maximum known: nothing to compare with";
}

TEST(HardwareSeries, WithoutSamplerItSaysWhyAndAFailingOneStopsWithItsError) {
  TestRng rng;
  const DeviceInfo info = gpu_info(rng);
  const ViewerHardware cpu = ViewerHardware::open(-1, DeviceInfo{}, 0.0);
  EXPECT_FALSE(cpu.available());
  EXPECT_EQ(cpu.reason(), "hardware counters unavailable: CPU backend");

  const ViewerHardware none(nullptr, "hardware counters unavailable: no permission", info, 0.0);
  EXPECT_FALSE(none.available());
  EXPECT_EQ(none.reason(), "hardware counters unavailable: no permission");

  const int good_polls = rng.uniform_int(0, 5);
  const double now = 1e9;
  ViewerHardware failing(std::make_unique<FakeSampler>(random_samples(rng, 20, 0.05), rng, &now, good_polls),
                         "", info, 0.0);
  for (int i = 0; i <= good_polls; ++i) failing.poll(i);
  EXPECT_FALSE(failing.available());
  EXPECT_EQ(failing.reason(), "hardware counters stopped: CUPTI said no");
  failing.poll(good_polls + 1.0);  // no sampler, no throw
}

TEST(HardwareSeries, ComputedLineIsFormulaBytesOverGpuTimeOfTheCurrentLayoutsGbpsKernels) {
  TestRng rng;
  const Layout current = random_layout(rng);
  const Solver solver = rng.uniform_int(0, 1) ? Solver::AllPairs : Solver::Attractors;
  std::vector<KernelTiming> timings;
  double bytes = 0.0, ms = 0.0;
  for (int i = rng.uniform_int(1, 12); i > 0; --i) {
    const KernelTiming t{static_cast<KernelKind>(rng.uniform_int(0, 3)), random_layout(rng),
                         rng.uniform(0.01f, 5.0f), rng.uniform(1e6f, 1e9f), 0.0};
    timings.push_back(t);
    if (t.layout != current || headline_metric(t.kernel, solver) != KernelMetric::GigabytesPerSecond)
      continue;
    bytes += t.bytes;
    ms += t.milliseconds;
  }
  const std::optional<double> combined = combined_gigabytes_per_second(timings, current, solver);
  ASSERT_EQ(combined.has_value(), ms > 0);
  if (combined) {
    EXPECT_NEAR(*combined, bytes / (ms * 1e6), 1e-9 * *combined);
  }
  EXPECT_NEAR(combined_formula_bytes(timings, current, solver), bytes, 1e-9 * bytes);
}

// Per frame: the sample's DRAM bytes (rate x its interval) over its frames, against the mean of those
// frames' formula bytes; a sample without frames has neither, and layouts keep their own means.
TEST(HardwareSeries, PerFrameBytesAreTheIntervalsDramOverItsFramesBesideTheirFormulaBytes) {
  TestRng rng;
  const double interval_ms = rng.uniform(20.0f, 100.0f);
  HardwareSeries series(interval_ms, 1980.0, 2619.0);
  const Layout layout = random_layout(rng);
  // An empty first interval, then one holding `frames` frames of the same layout.
  const double first_end = interval_ms * 1e-3;
  series.add_sample({first_end, 1e9, 1e9, 1.9e9, 2.6e9}, 0.0);
  ASSERT_FALSE(series.hardware().back().hardware_megabytes_per_frame().has_value());
  const int frames = rng.uniform_int(1, 40);
  const double second_end = first_end + interval_ms * 1e-3;
  double formula = 0.0;
  for (int f = 0; f < frames; ++f) {
    const double bytes = rng.uniform(1e6f, 3e9f);
    formula += bytes;
    series.add_frame({first_end + (f + 1) * (second_end - first_end) / (frames + 1), layout, std::nullopt, bytes});
  }
  const double read = rng.uniform(1e9f, 3e12f), write = rng.uniform(1e9f, 3e12f);
  series.add_sample({second_end, read, write, 1.9e9, 2.6e9}, 0.0);
  const HardwarePoint& p = series.hardware().back();
  ASSERT_EQ(p.frames, frames);
  const double expected_hw = (read + write) * (second_end - first_end) / frames * 1e-6;
  ASSERT_TRUE(p.hardware_megabytes_per_frame().has_value());
  EXPECT_NEAR(*p.hardware_megabytes_per_frame(), expected_hw, 1e-9 * expected_hw);
  ASSERT_TRUE(p.formula_megabytes_per_frame().has_value());
  EXPECT_NEAR(*p.formula_megabytes_per_frame(), formula / frames * 1e-6, 1e-9 * formula / frames * 1e-6);
  const auto& summary = series.layout_summary(layout);
  EXPECT_EQ(summary.hardware_megabytes_per_frame.count, 1);
  EXPECT_NEAR(summary.formula_megabytes_per_frame.mean(), formula / frames * 1e-6, 1e-9 * formula / frames * 1e-6);
}

}  // namespace
}  // namespace coalesce::testing
