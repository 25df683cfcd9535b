// Headless EGL (Mesa's software device here) with the CPU backend: the screenshot shows particles and
// the panel, and its JSON holds the panel's numbers; bad screenshot paths are refused before the run.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "sim/layout.h"
#include "sim/limits.h"
#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 900;

std::vector<std::string> headless_command(const std::string& png, int particles, const std::string& layout,
                                          int frames) {
  return viewer_command({true, "cpu", "galaxies", particles, layout, frames, kWidth, kHeight, png, {}});
}

TEST(HeadlessScreenshot, ShowsParticlesAndPanelInEveryLayout) {
  TestRng rng;
  const int particles = rng.uniform_int(2048, 6144);
  TempDir dir;
  for (const LayoutInfo& row : kLayoutTable) {
    const std::string layout(row.name);
    const std::string png = dir.file("shot-" + layout + ".png");
    const ProcessResult r =
        run_process(headless_command(png, particles, layout, 4), {"DISPLAY", "WAYLAND_DISPLAY"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_panel_and_particles(png, kWidth, kHeight);
    const auto j = load_screenshot_json(dir.file("shot-" + layout + ".json"));
    expect_screenshot_json(j, particles, layout);
    EXPECT_EQ(j.at("image").at("width"), kWidth);
    EXPECT_NE(j.at("render").at("target").get<std::string>().find("headless EGL"), std::string::npos);
    // GL timer queries (Mesa has them too): the draw's GPU time arrives a frame later, never zero.
    EXPECT_GT(j.at("frame").at("render_gpu_ms").get<double>(), 0.0) << j.at("frame").dump();
    EXPECT_GE(j.at("frame").at("render_gpu_samples").get<int>(), 1);
  }
}

TEST(HeadlessScreenshot, SidecarPathThatIsADirectoryIsRefusedBeforeTheRun) {
  TempDir dir;
  const std::string png = dir.file("blocked.png");
  std::filesystem::create_directory(dir.file("blocked.json"));  // the JSON path is taken by a directory
  const ProcessResult r = run_process(headless_command(png, 2048, "soa", 3), {"DISPLAY"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_EQ(r.err_lines().size(), 1u) << r.err;
  EXPECT_NE(r.err.find(dir.file("blocked.json") + " is a directory"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(png)) << "nothing is rendered or written when an output is bad";
  EXPECT_TRUE(std::filesystem::is_directory(dir.file("blocked.json")));
}

}  // namespace
}  // namespace coalesce::testing

namespace coalesce::testing {
namespace {

TEST(HeadlessScreenshot, NonFiniteStatePausesAndNamesTheStep) {
  TempDir dir;
  const std::string png = dir.file("nan.png");
  // Velocities near the float maximum overflow every position on the first step (dt is in range).
  TestRng rng;
  std::vector<Particle> state = random_particles(rng, rng.uniform_int(256, 1024));
  for (Particle& p : state) p.vx = 3e38f;
  write_npy(dir.file("fast.npy"), "<f4", "(" + std::to_string(state.size()) + ", 7)", bytes_of(state));
  const ProcessResult r =
      run_process({coalesce_executable(), "--headless", "--backend", "cpu", "--scene", "cube", "--load-state",
                   dir.file("fast.npy"), "--dt", "1000", "--frames", "5", "--screenshot", png},
                  {"DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("NaN/Inf in the state at step 1"), std::string::npos) << r.err;
  const auto j = load_screenshot_json(dir.file("nan.json"));
  ASSERT_TRUE(j.contains("non_finite")) << j.dump(2);
  EXPECT_EQ(j.at("non_finite").at("step"), 1);
  EXPECT_TRUE(j.at("settings").at("paused").get<bool>());
  EXPECT_EQ(j.at("simulation").at("step"), 1) << "the simulation must stop stepping once paused";
}

}  // namespace
}  // namespace coalesce::testing

namespace coalesce::testing {
namespace {

TEST(HeadlessScreenshot, ScriptedSweepFillsCompareForAllLayoutsAndRestoresTheLayout) {
  TestRng rng;
  const int per_layout = rng.uniform_int(2, 3);
  TempDir dir;
  const std::string png = dir.file("sweep.png");
  const ProcessResult r =
      run_process({coalesce_executable(), "--headless", "--backend", "cpu", "--scene", "swirl", "--particles",
                   "4096", "--layout", "soa", "--frames", std::to_string(int(kLayoutCount) * per_layout + 3), "--sweep",
                   std::to_string(per_layout), "--screenshot", png},
                  {"DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = load_screenshot_json(dir.file("sweep.json"));
  for (const LayoutInfo& row : kLayoutTable) {
    const std::string layout(row.name);
    EXPECT_GT(j.at("compare").at(layout).at("integrate").at("gigabytes_per_second").get<double>(), 0.0)
        << layout;
    EXPECT_GT(j.at("compare").at(layout).at("pack").at("gigabytes_per_second").get<double>(), 0.0) << layout;
  }
  EXPECT_EQ(j.at("settings").at("layout"), "soa") << "the sweep must return to the user's layout";
}

}  // namespace
}  // namespace coalesce::testing

namespace coalesce::testing {
namespace {

// Sum of luminance right of the panel: the light the particles put on screen.
double particle_light(const std::string& png) {
  const Picture picture = load_picture(png);
  double sum = 0;
  for (int y = 0; y < picture.height; ++y)
    for (int x = kPanelWidthPixels + 2; x < picture.width; ++x) sum += picture.luminance(x, y);
  return sum;
}

TEST(HeadlessScreenshot, DrawLimitDrawsEveryKthParticleWithTheirLight) {
  TestRng rng;
  const int particles = rng.uniform_int(20000, 40000);
  const int limit = rng.uniform_int(particles / 6, particles / 2);
  const int stride = (particles + limit - 1) / limit;
  TempDir dir;
  auto run = [&](const std::string& name, int draw_limit) {
    const std::string png = dir.file(name + ".png");
    const ProcessResult r =
        run_process({coalesce_executable(), "--headless", "--backend", "cpu", "--scene", "swirl",
                     "--particles", std::to_string(particles), "--frames", "2", "--width", "1280", "--height",
                     "720", "--draw-limit", std::to_string(draw_limit), "--screenshot", png},
                    {"DISPLAY"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return png;
  };
  // 0 draws all; so does any limit >= N (the default 4194304 included at these sizes).
  const std::string all = run("all", 0);
  const std::string above = run("above", rng.uniform_int(particles, kMaxParticles));
  const std::string limited = run("limited", limit);
  const auto j_all = load_screenshot_json(dir.file("all.json"));
  EXPECT_EQ(j_all.at("render").at("drawn_particles"), particles);
  EXPECT_EQ(j_all.at("settings").at("draw_limit"), 0);
  EXPECT_EQ(load_screenshot_json(dir.file("above.json")).at("render").at("drawn_particles"), particles);
  const auto j = load_screenshot_json(dir.file("limited.json"));
  EXPECT_EQ(j.at("render").at("drawn_particles"), (particles + stride - 1) / stride) << "limit " << limit;
  EXPECT_EQ(j.at("settings").at("draw_limit"), limit);
  EXPECT_EQ(j.at("settings").at("particles"), particles) << "the simulation still runs all of them";
  // Fewer particles carry their light: the screen is about as bright (the tone map saturates a little).
  const double ratio = particle_light(limited) / particle_light(all);
  std::printf("light ratio limited / all: %.3f (stride %d)\n", ratio, stride);
  EXPECT_GT(ratio, 0.6) << "N " << particles << " limit " << limit;
  EXPECT_LT(ratio, 1.25) << "N " << particles << " limit " << limit;
}

}  // namespace
}  // namespace coalesce::testing
