// The hardware series the panel plots and the JSON reports, fed by a fake sampler on random data: the
// rings keep the newest, every sample takes the frames overlapping its interval by their time inside and
// the layout that filled most of it, the summaries cover every measured sample, the clock note follows
// the clock while DRAM was busy and only beyond 5%, a layout too brief for a sample says so, the decode
// thread's time is reported apart from the frame loop's, and a failing sampler says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "app/viewer/viewer_hardware.h"
#include "app/viewer/viewer_report_hardware.h"
#include "app/viewer/viewer_stats.h"
#include "kernels/counters/sampler_thread.h"
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

// What the series must make of one sample, worked out from every frame: each frame covers the time since
// the previous one (the first covers none) and counts by its time inside (start, stop].
struct ExpectedSample {
  std::optional<Layout> layout;
  Precision precision = Precision::Fp32;  // with a layout: the precision of its frames
  double share = 0.0;
  std::optional<double> computed;
  double frames = 0.0;
  double formula_bytes = 0.0;
};

// A (layout, precision) pair as one index: samples belong to a layout in a precision.
constexpr std::size_t kRuns = kLayoutCount * kPrecisionCount;
std::size_t run_of(Layout layout, Precision precision) {
  return static_cast<std::size_t>(precision) * kLayoutCount + static_cast<std::size_t>(layout);
}

ExpectedSample expected_sample(const std::vector<ComputedPoint>& frames, double begin, double stop) {
  ExpectedSample e;
  std::array<double, kRuns> covered{}, value{}, weight{};
  double all_value = 0.0, all_weight = 0.0;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const double from = f == 0 ? frames[0].seconds : frames[f - 1].seconds;
    const double inside = std::min(stop, frames[f].seconds) - std::max(begin, from);
    if (inside <= 0) continue;
    const std::size_t l = run_of(frames[f].layout, frames[f].precision);
    covered[l] += inside;
    e.frames += inside / (frames[f].seconds - from);
    e.formula_bytes += inside / (frames[f].seconds - from) * frames[f].formula_bytes;
    if (frames[f].gigabytes_per_second) {
      value[l] += *frames[f].gigabytes_per_second * inside;
      weight[l] += inside;
      all_value += *frames[f].gigabytes_per_second * inside;
      all_weight += inside;
    }
  }
  for (Precision precision : kAllPrecisions)
    for (Layout layout : kAllLayouts)
      if (covered[run_of(layout, precision)] > 0.5 * (stop - begin)) {
        e.layout = layout;
        e.precision = precision;
        e.share = covered[run_of(layout, precision)] / (stop - begin);
      }
  if (e.layout && weight[run_of(*e.layout, e.precision)] > 0)
    e.computed = value[run_of(*e.layout, e.precision)] / weight[run_of(*e.layout, e.precision)];
  if (!e.layout && all_weight > 0) e.computed = all_value / all_weight;
  return e;
}

TEST(HardwareSeries, SamplesTakeTheFramesOverlappingTheirIntervalAndSummariesCoverEverySample) {
  TestRng rng;
  const DeviceInfo info = gpu_info(rng);
  const double interval = kHardwareIntervalMs * 1e-3;
  const int count = rng.uniform_int(1100, 1500);  // more than the ring holds
  const std::vector<HardwareSample> samples = random_samples(rng, count, interval);
  const double offset = rng.uniform(0.0f, 5.0f);  // the viewer's clock when the sampler started
  double now = 0.0;                               // the sampler's clock
  ViewerHardware hardware(std::make_unique<FakeSampler>(samples, rng, &now), "", info, offset);
  ASSERT_TRUE(hardware.available());

  // Frames at random steps (some longer than a sample), runs of one layout in one precision, some without
  // timings.
  std::vector<ComputedPoint> frames;
  Layout layout = random_layout(rng);
  Precision precision = random_precision(rng);
  const double end = samples.back().seconds + offset;
  for (double t = offset; t <= end + interval;) {
    t += interval * rng.uniform(0.05f, 1.5f);
    if (rng.uniform_int(0, 20) == 0) layout = random_layout(rng);
    if (rng.uniform_int(0, 40) == 0) precision = random_precision(rng);
    ComputedPoint frame{t, layout, std::nullopt, rng.uniform(0.0f, 2e9f)};
    frame.precision = precision;
    if (rng.uniform_int(0, 4) != 0) frame.gigabytes_per_second = rng.uniform(0.0f, 3000.0f);
    frames.push_back(frame);
  }
  // As the frame loop does: each frame, then a poll at that time.
  long polls = 0;
  for (const ComputedPoint& frame : frames) {
    hardware.add_frame(frame);
    now = frame.seconds - offset;
    hardware.poll();
    ++polls;
  }
  now = 1e9;
  for (int i = 0; i < 10000 && hardware.series().samples() < count; ++i, ++polls) hardware.poll();
  const HardwareSeries& s = hardware.series();
  ASSERT_EQ(s.samples(), count);
  ASSERT_EQ(s.unmeasured_samples(), 0) << "every random sample has clocks and covers time";
  ASSERT_EQ(s.hardware().size(), 1024u) << "the ring keeps the newest 1024";
  EXPECT_DOUBLE_EQ(s.hardware().back().end_seconds, samples.back().seconds + offset);
  EXPECT_EQ(hardware.poll_milliseconds().count, polls) << "the frame loop's cost: one entry per poll";
  EXPECT_FALSE(hardware.decode_milliseconds().has_value()) << "the fake decodes in poll: no thread of its own";

  // Reference: every sample against every frame, and the summaries over all samples.
  Summary dram;
  std::vector<std::pair<Summary, Summary>> per_layout(kRuns);
  std::array<double, kRuns> ran{};
  for (std::size_t f = 1; f < frames.size(); ++f)
    ran[run_of(frames[f].layout, frames[f].precision)] += frames[f].seconds - frames[f - 1].seconds;
  const std::size_t first_kept = samples.size() - s.hardware().size();
  long attributed = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const double begin = i == 0 ? samples[0].seconds + offset - interval : samples[i - 1].seconds + offset;
    const double stop = samples[i].seconds + offset;
    const double gbps =
        (samples[i].dram_read_bytes_per_second + samples[i].dram_write_bytes_per_second) * 1e-9;
    dram.add(gbps);
    const ExpectedSample e = expected_sample(frames, begin, stop);
    if (e.layout) {
      ++attributed;
      per_layout[run_of(*e.layout, e.precision)].first.add(gbps);
      if (e.computed) per_layout[run_of(*e.layout, e.precision)].second.add(*e.computed);
    }
    if (i < first_kept) continue;
    const HardwarePoint& p = s.hardware()[i - first_kept];
    ASSERT_NEAR(p.start_seconds, begin, 1e-9) << "sample " << i;
    ASSERT_NEAR(p.dram_gigabytes_per_second(), gbps, 1e-6 * gbps + 1e-12) << "sample " << i;
    ASSERT_EQ(p.layout, e.layout) << "sample " << i;
    if (e.layout) {
      ASSERT_EQ(p.precision, e.precision) << "sample " << i;
    }
    ASSERT_NEAR(p.layout_share, e.share, 1e-9) << "sample " << i;
    if (e.layout) {
      ASSERT_GT(p.layout_share, 0.5) << "sample " << i;
    }
    ASSERT_NEAR(p.frames, e.frames, 1e-9 * (1 + e.frames)) << "sample " << i;
    ASSERT_NEAR(p.formula_bytes, e.formula_bytes, 1e-9 * (1 + e.formula_bytes)) << "sample " << i;
    ASSERT_EQ(p.computed_gigabytes_per_second.has_value(), e.computed.has_value()) << "sample " << i;
    if (e.computed) {
      ASSERT_NEAR(*p.computed_gigabytes_per_second, *e.computed, 1e-6) << "sample " << i;
    }
    ASSERT_NEAR(p.sm_clock_mhz, samples[i].sm_clock_hz * 1e-6, 1e-6);
  }
  EXPECT_GT(attributed, count / 4) << "most samples fall inside one layout's run";
  EXPECT_NEAR(s.dram().mean(), dram.mean(), 1e-9 * dram.mean());
  EXPECT_DOUBLE_EQ(s.dram().min, dram.min);
  EXPECT_DOUBLE_EQ(s.dram().max, dram.max);
  for (Precision p : kAllPrecisions) {
    for (Layout l : kAllLayouts) {
      const auto& [hw, computed] = per_layout[run_of(l, p)];
      const HardwareSeries::LayoutSummary& got = s.layout_summary(l, p);
      const std::string row = std::string(to_string(l)) + " " + std::string(to_string(p));
      EXPECT_EQ(got.dram.count, hw.count) << row;
      EXPECT_NEAR(got.dram.mean(), hw.mean(), 1e-9 * (1 + hw.mean())) << row;
      EXPECT_EQ(got.computed.count, computed.count) << row;
      EXPECT_NEAR(got.computed.mean(), computed.mean(), 1e-6) << row;
      EXPECT_NEAR(got.seconds_run, ran[run_of(l, p)], 1e-6) << row;
    }
  }
  EXPECT_DOUBLE_EQ(s.sm_clock().maximum_mhz, std::optional<int>(info.sm_clock_khz).value() * 1e-3);
  EXPECT_DOUBLE_EQ(s.dram_clock().maximum_mhz, std::optional<int>(info.memory_clock_khz).value() * 1e-3);
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
      const double bytes = rng.uniform(1e6f, 1e11f);  // a pair weighs the same
      clock.add(mean * (1.0 + spread), bytes);
      clock.add(mean * (1.0 - spread), bytes);
    }
    clock.add(mean, rng.uniform(1e6f, 1e11f));
    const std::string note = clock_note("SM", clock);
    ASSERT_EQ(!note.empty(), outside) << "maximum " << clock.maximum_mhz << " mean " << clock.mhz.mean();
    if (outside) {
      EXPECT_NE(note.find(sign < 0 ? "below" : "above"), std::string::npos) << note;
    }
  }
  ClockReport unknown;
  unknown.add(1000.0, 1e9);
  EXPECT_EQ(clock_note("SM", unknown), "") << "no maximum known: nothing to compare with";
  ClockReport idle;
  idle.maximum_mhz = 1980.0;
  idle.add(500.0, 0.0);
  EXPECT_EQ(clock_note("SM", idle), "") << "no DRAM byte moved: no work to have been slowed";
}

// A run as the sampler hands it out: phases of samples, each with its clocks (as fractions of their
// maximums; 0 for the sampler's first samples, which read 0 MHz) and DRAM rates.
struct Phase {
  int samples;
  double sm_fraction;
  double memory_fraction;
  float dram_low, dram_high;  // GB/s, read + write
};

std::vector<HardwareSample> run_of(TestRng& rng, const std::vector<Phase>& phases, double sm_max_mhz,
                                   double memory_max_mhz, double interval) {
  std::vector<HardwareSample> out;
  double t = 0.0;
  for (const Phase& phase : phases)
    for (int i = 0; i < phase.samples; ++i) {
      t += interval * rng.uniform(0.9f, 1.1f);
      const double dram = rng.uniform(phase.dram_low, phase.dram_high) * 1e9;
      const double read = dram * rng.uniform(0.3f, 0.9f);
      // Within 1% of the fraction, as a real clock wanders.
      const double wobble = phase.sm_fraction > 0 ? rng.uniform(0.99f, 1.0f) : 0.0;
      // The H200's start-up samples read about 1e-7 MHz, not exactly 0: a residue below 1 MHz.
      const double residue = phase.sm_fraction > 0 ? 0.0 : rng.uniform(0.0f, 0.5f) * 1e6;
      out.push_back({t, read, dram - read, phase.sm_fraction * wobble * sm_max_mhz * 1e6 + residue,
                     phase.memory_fraction * wobble * memory_max_mhz * 1e6 + residue});
    }
  return out;
}

// The rule twice: the pure function over the points, and the series that keeps it as samples arrive.
std::vector<std::string> notes_both_ways(const std::vector<HardwareSample>& run, double sm_max, double memory_max,
                                         double interval, HardwareSeries* series_out = nullptr) {
  HardwareSeries series(interval * 1e3, sm_max, memory_max);
  for (const HardwareSample& sample : run) series.add_sample(sample, 0.0);
  const std::vector<HardwarePoint> points(series.hardware().begin(), series.hardware().end());
  const std::vector<std::string> pure = clock_notes(points, sm_max, memory_max);
  EXPECT_EQ(series.clock_notes(), pure);
  if (series_out) *series_out = series;
  return pure;
}

double plain_mean_sm(const std::vector<HardwareSample>& run) {
  double sum = 0.0;
  for (const HardwareSample& s : run) sum += s.sm_clock_hz * 1e-6;
  return sum / static_cast<double>(run.size());
}

TEST(HardwareSeries, ClockNotesLeaveOutStartUpZerosAndIdlePausesButNotAThrottledRun) {
  TestRng rng;
  const double sm_max = rng.uniform(1400.0f, 2100.0f), memory_max = rng.uniform(1500.0f, 3000.0f);
  const double interval = kHardwareIntervalMs * 1e-3;
  for (int trial = 0; trial < 50; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    // A start of zeros, then full clocks: the old plain mean fell more than 5% short, the rule says nothing.
    const int full = rng.uniform_int(5, 40);
    const int zeros = full / 8 + rng.uniform_int(1, 3);
    std::vector<HardwareSample> start = run_of(
        rng, {{zeros, 0.0, 0.0, 0.0f, 3000.0f}, {full, 1.0, 1.0, 100.0f, 3000.0f}}, sm_max, memory_max, interval);
    // ... and one sample that covers no time (its end repeats the previous one's), at a low clock.
    const std::size_t at = static_cast<std::size_t>(rng.uniform_int(zeros + 1, zeros + full - 1));
    HardwareSample empty = start[at - 1];
    empty.sm_clock_hz *= 0.5;
    start.insert(start.begin() + static_cast<long>(at), empty);
    ASSERT_LT(plain_mean_sm(start), 0.95 * sm_max) << "the zeros must matter to a plain mean";
    HardwareSeries series(kHardwareIntervalMs, sm_max, memory_max);
    EXPECT_EQ(notes_both_ways(start, sm_max, memory_max, interval, &series), std::vector<std::string>{});
    EXPECT_EQ(series.unmeasured_samples(), zeros + 1);
    EXPECT_GT(series.sm_clock().mhz.min, 0.98 * sm_max) << "no 0 MHz and no empty sample in the summary";

    // A throttled run (SM or memory), after a start of zeros: a note saying which clock, and below.
    const bool sm_throttled = rng.uniform_int(0, 1) == 1;
    const double low = rng.uniform(0.5f, 0.9f);
    const std::vector<HardwareSample> throttled =
        run_of(rng, {{rng.uniform_int(0, 3), 0.0, 0.0, 0.0f, 10.0f},
                     {rng.uniform_int(5, 40), sm_throttled ? low : 1.0, sm_throttled ? 1.0 : low, 100.0f, 3000.0f}},
               sm_max, memory_max, interval);
    const std::vector<std::string> notes = notes_both_ways(throttled, sm_max, memory_max, interval);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0].rfind(sm_throttled ? "SM clock" : "memory clock", 0), 0u) << notes[0];
    EXPECT_NE(notes[0].find("below"), std::string::npos) << notes[0];

    // Busy at full clocks, an idle pause at a low clock as long as the work or up to three times longer,
    // then busy again: a plain mean would warn, the rule does not.
    const int busy = rng.uniform_int(5, 30);
    const double idle_clock = rng.uniform(0.3f, 0.7f);
    const int first = rng.uniform_int(1, busy);
    const std::vector<HardwareSample> paused =
        run_of(rng, {{first, 1.0, 1.0, 100.0f, 3000.0f},
                     {rng.uniform_int(busy, 3 * busy), idle_clock, idle_clock, 0.0f, 0.5f},
                     {busy - first + 1, 1.0, 1.0, 100.0f, 3000.0f}},
               sm_max, memory_max, interval);
    ASSERT_LT(plain_mean_sm(paused), 0.95 * sm_max) << "the pause must matter to a plain mean";
    EXPECT_EQ(notes_both_ways(paused, sm_max, memory_max, interval), std::vector<std::string>{});
  }
}

// Frames of `frames_per_layout` at about `fps` for each layout in turn, starting at `t`, in `precision`.
std::vector<ComputedPoint> sweep_frames(TestRng& rng, double t, double fps,
                                        const std::vector<std::pair<Layout, int>>& runs,
                                        Precision precision = Precision::Fp32) {
  std::vector<ComputedPoint> frames;
  for (const auto& [layout, count] : runs)
    for (int i = 0; i < count; ++i) {
      t += rng.uniform(0.95f, 1.05f) / fps;
      frames.push_back({t, layout, rng.uniform(500.0f, 3000.0f), rng.uniform(1e6f, 1e9f)});
      frames.back().precision = precision;
    }
  return frames;
}

// Measured samples every interval exactly, the first ending at `first_end`, up to `until`.
std::vector<HardwareSample> steady_samples(TestRng& rng, double first_end, double until, double interval) {
  std::vector<HardwareSample> out;
  for (double t = first_end; t <= until; t += interval)
    out.push_back({t, rng.uniform(1e10f, 2e12f), rng.uniform(1e10f, 1e12f), 1.9e9, 2.6e9});
  return out;
}

// The sweep: 40 frames per layout at 300-480 FPS, 80-133 ms per layout against 50 ms samples
// at a random phase. By the majority of each interval every layout gets samples of its own, whatever
// the phase: a run longer than 1.5 intervals always holds a whole sample or over half of one.
TEST(HardwareSeries, ASweepOfFortyFramesPerLayoutGivesEveryLayoutSamples) {
  TestRng rng;
  const double interval = kHardwareIntervalMs * 1e-3;
  const double fps = rng.uniform(300.0f, 480.0f);
  const std::vector<ComputedPoint> frames = sweep_frames(
      rng, 1.0, fps, {{Layout::AoS, 40}, {Layout::SoA, 40}, {Layout::Float4, 40}, {Layout::AoS, 40}});
  HardwareSeries series(kHardwareIntervalMs, 1980.0, 2619.0);
  for (const ComputedPoint& f : frames) series.add_frame(f);
  const std::vector<HardwareSample> samples =
      steady_samples(rng, frames.front().seconds + rng.uniform(0.0f, 0.05f), frames.back().seconds, interval);
  for (const HardwareSample& s : samples) series.add_sample(s, 0.0);
  for (Layout layout : kAllLayouts) {
    EXPECT_GE(series.layout_summary(layout, Precision::Fp32).dram.count, 1)
        << to_string(layout) << " at " << fps << " FPS";
    EXPECT_GE(series.layout_summary(layout, Precision::Fp32).computed.count, 1) << to_string(layout);
    EXPECT_EQ(series.unsampled_note(layout, Precision::Fp32), "") << to_string(layout);
  }
  for (const HardwarePoint& p : series.hardware()) {
    const ExpectedSample e = expected_sample(frames, p.start_seconds, p.end_seconds);
    ASSERT_EQ(p.layout, e.layout) << "sample ending " << p.end_seconds;
    if (p.layout) {
      EXPECT_GT(p.layout_share, 0.5);
    }
  }
}

// A sweep of every layout in fp32 and then in fp64 (the panel's "sweep x precisions"): each pair has samples
// of its own, a marker of the other precision never takes them, and the JSON keeps each precision's layouts
// apart: per_layout is the asked precision's, per_layout_by_precision holds both.
TEST(HardwareSeries, ASweepOverPrecisionsKeepsEachLayoutAndPrecisionApart) {
  TestRng rng;
  const double interval = kHardwareIntervalMs * 1e-3;
  const double fps = rng.uniform(300.0f, 480.0f);
  const std::vector<std::pair<Layout, int>> runs = {
      {Layout::AoS, 40}, {Layout::SoA, 40}, {Layout::Float4, 40}};
  std::vector<ComputedPoint> frames = sweep_frames(rng, 1.0, fps, runs, Precision::Fp32);
  const std::vector<ComputedPoint> wide =
      sweep_frames(rng, frames.back().seconds, fps, runs, Precision::Fp64);
  frames.insert(frames.end(), wide.begin(), wide.end());
  double now = 1e9;
  ViewerHardware fed(
      std::make_unique<FakeSampler>(steady_samples(rng, frames.front().seconds + rng.uniform(0.0f, 0.05f),
                                                   frames.back().seconds, interval),
                                    rng, &now),
      "", gpu_info(rng), 0.0);
  for (const ComputedPoint& f : frames) fed.add_frame(f);
  for (int i = 0; i < 1000; ++i) fed.poll();
  const HardwareSeries& s = fed.series();
  for (const HardwarePoint& p : s.hardware()) {
    const ExpectedSample e = expected_sample(frames, p.start_seconds, p.end_seconds);
    ASSERT_EQ(p.layout, e.layout) << "sample ending " << p.end_seconds;
    if (p.layout) {
      ASSERT_EQ(p.precision, e.precision) << "sample ending " << p.end_seconds;
    }
  }
  const Precision asked = random_precision(rng);
  const nlohmann::json j = sampled_hardware_json(fed, asked);
  for (Precision precision : kAllPrecisions) {
    const std::string name(to_string(precision));
    for (Layout layout : kAllLayouts) {
      EXPECT_GE(s.layout_summary(layout, precision).dram.count, 1) << to_string(layout) << " " << name;
      const nlohmann::json& entry =
          j.at("per_layout_by_precision").at(name).at(std::string(to_string(layout)));
      EXPECT_GE(entry.at("samples").get<int>(), 1) << entry.dump();
    }
  }
  EXPECT_EQ(j.at("per_layout"), j.at("per_layout_by_precision").at(std::string(to_string(asked))));
  bool precision_named = false;
  for (const nlohmann::json& r : j.at("recent"))
    if (!r.at("layout").is_null()) precision_named = precision_named || r.at("precision").is_string();
  EXPECT_TRUE(precision_named) << "recent samples name the precision beside the layout";
}

// A layout shorter than half a sample, centred on a sample boundary, has no sample of its own: the
// series says how long it ran and why, and the JSON has that note and nulls instead of no entry.
TEST(HardwareSeries, ALayoutTooBriefForASampleSaysSoInTheSeriesAndTheJson) {
  TestRng rng;
  const double interval = kHardwareIntervalMs * 1e-3;
  const double fps = rng.uniform(300.0f, 600.0f);
  const int long_frames = static_cast<int>(fps * interval * rng.uniform_int(4, 8));
  const int brief_frames = std::max(2, static_cast<int>(fps * rng.uniform(0.02f, 0.045f)));
  std::vector<ComputedPoint> frames = sweep_frames(
      rng, 1.0, fps, {{Layout::AoS, long_frames}, {Layout::SoA, brief_frames}, {Layout::Float4, long_frames}});
  const auto soa_begin = std::find_if(frames.begin(), frames.end(), [](const ComputedPoint& f) { return f.layout == Layout::SoA; });
  const auto soa_end = std::find_if(soa_begin, frames.end(), [](const ComputedPoint& f) { return f.layout != Layout::SoA; });
  const double ran = soa_end[-1].seconds - soa_begin[-1].seconds;  // from the last AoS frame
  ASSERT_LT(ran, interval) << "brief: " << brief_frames << " frames at " << fps << " FPS";
  // A sample boundary near the middle of the SoA run, so neither sample holds half of it.
  const double middle = soa_begin[-1].seconds + ran / 2 + rng.uniform(-0.2f, 0.2f) * (interval / 2 - ran / 2);
  const double first_end = middle - interval * std::floor((middle - frames.front().seconds) / interval);

  double now = 1e9;
  ViewerHardware fed(std::make_unique<FakeSampler>(steady_samples(rng, first_end, frames.back().seconds, interval),
                                                   rng, &now),
                     "", gpu_info(rng), 0.0);
  for (const ComputedPoint& f : frames) fed.add_frame(f);
  for (int i = 0; i < 1000; ++i) fed.poll();
  const HardwareSeries& s = fed.series();
  ASSERT_GT(s.samples(), 8);
  EXPECT_EQ(s.layout_summary(Layout::SoA, Precision::Fp32).dram.count, 0);
  EXPECT_NEAR(s.layout_summary(Layout::SoA, Precision::Fp32).seconds_run, ran, 1e-9);
  char expected[120];
  std::snprintf(expected, sizeof expected, "ran %.0f ms, shorter than one 50 ms sample", ran * 1e3);
  EXPECT_EQ(s.unsampled_note(Layout::SoA, Precision::Fp32), expected);
  EXPECT_EQ(s.unsampled_note(Layout::AoS, Precision::Fp32), "");
  EXPECT_EQ(s.unsampled_note(Layout::Float4, Precision::Fp32), "");

  const nlohmann::json j = sampled_hardware_json(fed, Precision::Fp32);
  const nlohmann::json& soa = j.at("per_layout").at("soa");
  EXPECT_EQ(soa.at("samples"), 0) << soa.dump();
  EXPECT_TRUE(soa.at("dram_gigabytes_per_second").is_null()) << soa.dump();
  EXPECT_EQ(soa.at("note"), expected) << soa.dump();
  EXPECT_NEAR(soa.at("ran_milliseconds").get<double>(), ran * 1e3, 1e-6);
  for (const char* layout : {"aos", "float4"}) {
    const nlohmann::json& l = j.at("per_layout").at(layout);
    EXPECT_GE(l.at("samples").get<int>(), 3) << l.dump();
    EXPECT_TRUE(l.at("note").is_null()) << l.dump();
    EXPECT_FALSE(l.at("dram_gigabytes_per_second").is_null()) << l.dump();
  }
}

// The frame loop only takes finished samples; the decodes run on the sampler's thread and their time is
// reported apart (null where the sampler decodes in poll itself).
TEST(HardwareSeries, TheDecodeThreadsTimeIsReportedApartFromTheFrameLoopsPolls) {
  TestRng rng;
  const int count = rng.uniform_int(5, 30);
  const std::vector<HardwareSample> samples = random_samples(rng, count, 0.05);
  const double now = 1e9;
  TestRng worker_rng;  // the worker's own: TestRng is not shared between threads
  ViewerHardware threaded(
      std::make_unique<ThreadedSampler>(std::make_unique<FakeSampler>(samples, worker_rng, &now), 1.0), "",
      gpu_info(rng), 0.0);
  long polls = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (threaded.series().samples() < count && std::chrono::steady_clock::now() < deadline) {
    threaded.poll();
    ++polls;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ASSERT_EQ(threaded.series().samples(), count);
  ASSERT_TRUE(threaded.decode_milliseconds().has_value());
  EXPECT_GE(threaded.decode_milliseconds()->count, 1);
  EXPECT_EQ(threaded.poll_milliseconds().count, polls);
  const nlohmann::json j = sampled_hardware_json(threaded, random_precision(rng));
  EXPECT_GE(j.at("decode_milliseconds").at("mean").get<double>(), 0.0) << j.dump();
  EXPECT_TRUE(j.at("poll_milliseconds").is_object()) << j.dump();
  EXPECT_TRUE(j.at("open_milliseconds").is_null()) << "not opened through open(): unknown, not 0";

  double never = 0.0;
  ViewerHardware inline_decoding(std::make_unique<FakeSampler>(samples, rng, &never), "", gpu_info(rng), 0.0);
  inline_decoding.poll();
  EXPECT_TRUE(
      sampled_hardware_json(inline_decoding, random_precision(rng)).at("decode_milliseconds").is_null());
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
  for (int i = 0; i <= good_polls; ++i) failing.poll();
  EXPECT_FALSE(failing.available());
  EXPECT_EQ(failing.reason(), "hardware counters stopped: CUPTI said no");
  failing.poll();  // no sampler, no throw
}

// Late timings of another layout or precision (a switch's) are not this frame's kernels. The computed GB/s
// is the memory-bound kernels'; the per-frame formula bytes are every kernel's, the all-pairs forces' partial
// sums included, and say how much of them are partial sums.
TEST(HardwareSeries, ComputedLineIsFormulaBytesOverGpuTimeOfTheCurrentLayoutsGbpsKernels) {
  TestRng rng;
  const Layout current = random_layout(rng);
  const Precision precision = random_precision(rng);
  const ForceMethod method =
      kForceMethodTable[rng.uniform_int(0, static_cast<int>(kForceMethodCount) - 1)].method;
  std::vector<KernelTiming> timings;
  double bytes = 0.0, ms = 0.0, frame_bytes = 0.0, frame_scratch = 0.0;
  for (int i = rng.uniform_int(1, 16); i > 0; --i) {
    KernelTiming t{static_cast<KernelKind>(rng.uniform_int(0, 3)),
                   random_layout(rng),
                   rng.uniform(0.01f, 5.0f),
                   rng.uniform(1e6f, 1e9f),
                   0.0,
                   random_precision(rng)};
    if (t.kernel == KernelKind::Forces && rng.uniform_int(0, 1)) {
      t.scratch_bytes = rng.uniform(1e6f, 4e8f);
      t.bytes += t.scratch_bytes;
    }
    timings.push_back(t);
    if (t.layout != current || t.precision != precision) continue;
    frame_bytes += t.bytes;
    frame_scratch += t.scratch_bytes;
    if (headline_metric(t.kernel, method) != KernelMetric::GigabytesPerSecond) continue;
    bytes += t.bytes;
    ms += t.milliseconds;
  }
  const std::optional<double> combined = combined_gigabytes_per_second(timings, current, precision, method);
  ASSERT_EQ(combined.has_value(), ms > 0);
  if (combined) {
    EXPECT_NEAR(*combined, bytes / (ms * 1e6), 1e-9 * *combined);
  }
  double scratch = -1.0;
  EXPECT_NEAR(combined_formula_bytes(timings, current, precision, &scratch), frame_bytes, 1e-9 * frame_bytes);
  EXPECT_NEAR(scratch, frame_scratch, 1e-9 * frame_bytes);
}

// Per frame: the sample's DRAM bytes (rate x its interval) over its frames, against the mean of those
// frames' formula bytes; a sample without frames has neither, and layouts keep their own means.
TEST(HardwareSeries, PerFrameBytesAreTheIntervalsDramOverItsFramesBesideTheirFormulaBytes) {
  TestRng rng;
  const double interval_ms = rng.uniform(20.0f, 100.0f);
  HardwareSeries series(interval_ms, 1980.0, 2619.0);
  const Layout layout = random_layout(rng);
  // An empty first interval, then one filled by `frames` frames of the same layout, the last at its end.
  const double first_end = interval_ms * 1e-3;
  series.add_sample({first_end, 1e9, 1e9, 1.9e9, 2.6e9}, 0.0);
  ASSERT_FALSE(series.hardware().back().hardware_megabytes_per_frame().has_value());
  const int frames = rng.uniform_int(1, 40);
  const double second_end = first_end + interval_ms * 1e-3;
  // A frame at the boundary, so the next frames' time starts inside the second interval; it covers none.
  series.add_frame({first_end, layout, std::nullopt, rng.uniform(1e6f, 3e9f)});
  double formula = 0.0;
  for (int f = 0; f < frames; ++f) {
    const double bytes = rng.uniform(1e6f, 3e9f);
    formula += bytes;
    series.add_frame({first_end + (f + 1) * (second_end - first_end) / frames, layout, std::nullopt, bytes});
  }
  const double read = rng.uniform(1e9f, 3e12f), write = rng.uniform(1e9f, 3e12f);
  series.add_sample({second_end, read, write, 1.9e9, 2.6e9}, 0.0);
  const HardwarePoint& p = series.hardware().back();
  ASSERT_NEAR(p.frames, frames, 1e-9) << "each frame wholly inside counts once";
  const double expected_hw = (read + write) * (second_end - first_end) / frames * 1e-6;
  ASSERT_TRUE(p.hardware_megabytes_per_frame().has_value());
  EXPECT_NEAR(*p.hardware_megabytes_per_frame(), expected_hw, 1e-9 * expected_hw);
  ASSERT_TRUE(p.formula_megabytes_per_frame().has_value());
  EXPECT_NEAR(*p.formula_megabytes_per_frame(), formula / frames * 1e-6, 1e-9 * formula / frames * 1e-6);
  const auto& summary = series.layout_summary(layout, Precision::Fp32);
  EXPECT_EQ(summary.hardware_megabytes_per_frame.count, 1);
  EXPECT_NEAR(summary.formula_megabytes_per_frame.mean(), formula / frames * 1e-6, 1e-9 * formula / frames * 1e-6);
}

// The per-frame note names the largest of the three parts the numbers tell apart, with its MB: the forces'
// partial sums, the kernels' state bytes, or the DRAM beyond every formula; and the partial sums of the
// frames a sample covers are attributed to it as their formula bytes are.
TEST(HardwareSeries, PerFrameNoteNamesTheLargestPartWithItsMegabytes) {
  TestRng rng;
  for (int trial = 0; trial < 300; ++trial) {
    const double scratch = rng.uniform_int(0, 3) == 0 ? 0.0 : rng.uniform(0.0f, 800.0f);
    const double state = rng.uniform(0.1f, 800.0f);
    const double formula = scratch + state;
    const double dram = formula * rng.uniform(0.5f, 40.0f);
    const double beyond = std::max(0.0, dram - formula);
    const std::string note = per_frame_note(dram, formula, scratch);
    SCOPED_TRACE(note);
    const double largest = std::max({scratch, state, beyond});
    const char* part = largest == scratch  ? "partial sums"
                       : largest == beyond ? "in no formula"
                                           : "the kernels' state";
    EXPECT_NE(note.find(part), std::string::npos);
    char mb[32];
    std::snprintf(mb, sizeof mb, "%.0f of %.0f MB per frame", largest, dram);
    EXPECT_NE(note.find(mb), std::string::npos);
  }
  EXPECT_EQ(per_frame_note(0.0, 10.0, 1.0), "");
  EXPECT_EQ(per_frame_note(10.0, 0.0, 0.0), "");

  HardwareSeries series(50.0, 1980.0, 2619.0);
  const Layout layout = random_layout(rng);
  const double scratch = rng.uniform(1e6f, 4e8f), formula = scratch + rng.uniform(1e5f, 1e7f);
  const int frames = rng.uniform_int(2, 20);
  series.add_sample({0.05, 1e9, 1e9, 1.9e9, 2.6e9}, 0.0);
  series.add_frame({0.05, layout, std::nullopt, formula, 0.0, Precision::Fp32, scratch});
  for (int f = 1; f <= frames; ++f)
    series.add_frame(
        {0.05 + 0.05 * f / frames, layout, std::nullopt, formula, 0.0, Precision::Fp32, scratch});
  series.add_sample({0.1, 1e11, 1e11, 1.9e9, 2.6e9}, 0.0);
  const HardwarePoint& p = series.hardware().back();
  ASSERT_TRUE(p.scratch_megabytes_per_frame());
  EXPECT_NEAR(*p.scratch_megabytes_per_frame(), scratch * 1e-6, 1e-6 * scratch * 1e-6);
  EXPECT_NEAR(*p.formula_megabytes_per_frame(), formula * 1e-6, 1e-6 * formula * 1e-6);
}

}  // namespace
}  // namespace coalesce::testing
