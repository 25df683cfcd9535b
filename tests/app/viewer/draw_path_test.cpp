// --draw through the real executable, headless. Everywhere (Mesa in CI): the CPU backend draws points,
// --draw auto says why, and the point path keeps the 4M default limit. On a GPU: the CUDA splat draws the
// same picture as GL points at equal settings (every particle drawn), and --draw auto measures both and
// names its pick; the GPU part skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 720;

nlohmann::json run_shot(const TempDir& dir, const std::string& name, const std::string& backend,
                        int particles, const std::vector<std::string>& extra,
                        ProcessResult* result = nullptr) {
  const std::string png = dir.file(name + ".png");
  std::vector<std::string> args = {"--solver", "attractors"};
  args.insert(args.end(), extra.begin(), extra.end());
  const ProcessResult r =
      run_process(viewer_command({true, backend, "swirl", particles, "soa", 12, kWidth, kHeight, png, args}),
                  {"DISPLAY"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (result) *result = r;
  return load_screenshot_json(dir.file(name + ".json"));
}

TEST(DrawPath, CpuBackendDrawsPointsAndSaysWhy) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1000, 20000);
  const nlohmann::json j = run_shot(dir, "auto", "cpu", n, {});
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j.at("settings").at("draw"), "auto");
  EXPECT_EQ(j.at("render").at("draw"), "points");
  EXPECT_NE(j.at("render").at("draw_reason").get<std::string>().find("CUDA backend"), std::string::npos)
      << j.at("render").dump();
  EXPECT_TRUE(j.at("render").at("draw_calibration").is_null());
  EXPECT_EQ(j.at("settings").at("draw_limit"), 4194304) << "the point path keeps its 4M default";
  const auto& f = j.at("frame");
  EXPECT_EQ(f.at("splat_gpu_ms").get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(f.at("draw_gpu_ms").get<double>(), f.at("render_gpu_ms").get<double>());
  const nlohmann::json p = run_shot(dir, "points", "cpu", n, {"--draw", "points", "--draw-limit", "0"});
  EXPECT_EQ(p.at("render").at("draw_reason"), "points (--draw points)");
  EXPECT_EQ(p.at("settings").at("draw_limit"), 0);
}

// Per channel, over the particle area (right of the panel): the mean absolute difference and both means.
struct Difference {
  double mean_abs[3] = {0, 0, 0};
  double mean_a[3] = {0, 0, 0};
  double mean_b[3] = {0, 0, 0};
};

Difference compare_particle_area(const Picture& a, const Picture& b) {
  Difference d;
  long count = 0;
  for (int y = 0; y < a.height; ++y) {
    for (int x = kPanelWidthPixels + 2; x < a.width; ++x, ++count) {
      for (int c = 0; c < 3; ++c) {
        d.mean_abs[c] += std::abs(a.at(x, y)[c] - b.at(x, y)[c]);
        d.mean_a[c] += a.at(x, y)[c];
        d.mean_b[c] += b.at(x, y)[c];
      }
    }
  }
  for (int c = 0; c < 3; ++c) {
    d.mean_abs[c] /= count;
    d.mean_a[c] /= count;
    d.mean_b[c] /= count;
  }
  return d;
}

// The rule: the splat must look like today's points. Tolerances, stated before the H100 run:
// mean absolute difference <= 4 of 255 per channel (fp16 blending vs fp32 atomics, the driver's own
// point rasterization, 8-bit rounding), and per-channel means within 5% + 1 level.
constexpr double kMaxMeanAbsDifference = 4.0;
constexpr double kMeanRelative = 0.05;

TEST(DrawPath, SplatLooksLikePointsOnTheGpu) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  TempDir dir;
  // From full-size Gaussian sprites (<= 1M) through shrinking ones to flat pixels (>= 4M).
  const int n = size_or_quick(rng.uniform_int(1 << 17, 1 << 22), 65536);
  const nlohmann::json jp = run_shot(dir, "points", "cuda", n, {"--draw", "points", "--draw-limit", "0"});
  const nlohmann::json js = run_shot(dir, "splat", "cuda", n, {"--draw", "splat"});
  ASSERT_FALSE(jp.is_discarded());
  ASSERT_FALSE(js.is_discarded());
  EXPECT_EQ(jp.at("render").at("draw"), "points");
  EXPECT_EQ(js.at("render").at("draw"), "splat");
  EXPECT_EQ(js.at("settings").at("draw_limit"), 0) << "the splat draws every particle by default";
  EXPECT_EQ(js.at("render").at("drawn_particles"), n);
  EXPECT_GT(js.at("frame").at("splat_gpu_samples").get<int>(), 0) << js.at("frame").dump();
  EXPECT_GT(js.at("frame").at("splat_gpu_ms").get<double>(), 0.0);
  EXPECT_GE(js.at("frame").at("draw_gpu_ms").get<double>(), js.at("frame").at("splat_gpu_ms").get<double>());
  EXPECT_EQ(js.at("simulation").at("step"), jp.at("simulation").at("step"));
  expect_panel_and_particles(dir.file("splat.png"), kWidth, kHeight);

  const Difference d =
      compare_particle_area(load_picture(dir.file("points.png")), load_picture(dir.file("splat.png")));
  std::printf(
      "N = %d, points vs splat over the particle area: mean |diff| %.3f %.3f %.3f; means points "
      "%.2f %.2f %.2f, splat %.2f %.2f %.2f (of 255)\n",
      n, d.mean_abs[0], d.mean_abs[1], d.mean_abs[2], d.mean_a[0], d.mean_a[1], d.mean_a[2], d.mean_b[0],
      d.mean_b[1], d.mean_b[2]);
  for (int c = 0; c < 3; ++c) {
    EXPECT_LE(d.mean_abs[c], kMaxMeanAbsDifference) << "channel " << c << ", N = " << n;
    EXPECT_NEAR(d.mean_b[c], d.mean_a[c], kMeanRelative * d.mean_a[c] + 1.0)
        << "channel " << c << ", N = " << n;
  }
}

TEST(DrawPath, AutoMeasuresBothOnTheGpuAndNamesItsPick) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  TempDir dir;
  const int n = size_or_quick(rng.uniform_int(1 << 16, 1 << 21), 32768);
  ProcessResult r;
  const nlohmann::json j = run_shot(dir, "auto", "cuda", n, {}, &r);
  ASSERT_FALSE(j.is_discarded());
  const auto& calibration = j.at("render").at("draw_calibration");
  ASSERT_TRUE(calibration.is_object()) << j.at("render").dump();
  const double points = calibration.at("points_ms").get<double>(),
               splat = calibration.at("splat_ms").get<double>();
  EXPECT_GT(points, 0.0);
  EXPECT_GT(splat, 0.0);
  EXPECT_EQ(j.at("render").at("draw"), splat <= points ? "splat" : "points");
  // One line on stdout says which path and why.
  EXPECT_NE(
      r.out.find("coalesce: draw: " + j.at("render").at("draw").get<std::string>() + " (auto: GPU time"),
      std::string::npos)
      << r.out;
  EXPECT_EQ(j.at("settings").at("draw_limit"), splat <= points ? 0 : 4194304);
}

}  // namespace
}  // namespace coalesce::testing
