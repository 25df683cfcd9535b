// The windowed path (GLFW) under xvfb-run: same screenshot checks as headless; resizing and minimising
// mid-run do not crash; with no display and no --headless, one clear line and exit code 2.
#include <gtest/gtest.h>

#include "tests/render/screenshot_checks.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 900;

std::vector<std::string> under_xvfb(std::vector<std::string> command) {
  std::vector<std::string> full = {"xvfb-run", "-a", "-s", "-screen 0 1600x1000x24"};
  full.insert(full.end(), command.begin(), command.end());
  return full;
}

std::vector<std::string> windowed_command(const std::string& png, int particles, int frames) {
  return {coalesce_executable(),
          "--backend",
          "cpu",
          "--scene",
          "galaxies",
          "--particles",
          std::to_string(particles),
          "--layout",
          "soa",
          "--frames",
          std::to_string(frames),
          "--width",
          std::to_string(kWidth),
          "--height",
          std::to_string(kHeight),
          "--screenshot",
          png};
}

TEST(Windowed, ScreenshotUnderXvfbShowsParticlesAndPanel) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "skipped: xvfb-run not installed (apt-get install xvfb xauth)";
  TestRng rng;
  const int particles = rng.uniform_int(2048, 6144);
  TempDir dir;
  const std::string png = dir.file("window.png");
  const ProcessResult r = run_process(under_xvfb(windowed_command(png, particles, 6)));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_panel_and_particles(png, kWidth, kHeight);
  const auto j = load_screenshot_json(dir.file("window.json"));
  expect_screenshot_json(j, particles, "soa");
  EXPECT_NE(j.at("render").at("target").get<std::string>().find("window (GLFW"), std::string::npos);
}

TEST(Windowed, ResizeAndMinimiseDoNotCrash) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "skipped: xvfb-run not installed (apt-get install xvfb xauth)";
  TempDir dir;
  const std::string png = dir.file("resized.png");
  // The hook shrinks the window, minimises it, restores it and sets it to 1280 x 720 before the capture.
  const ProcessResult r =
      run_process(under_xvfb(windowed_command(png, 2048, 14)), {}, {"COALESCE_VIEWER_TEST_RESIZE=1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Picture picture = load_picture(png);
  EXPECT_EQ(picture.width, 1280);
  EXPECT_EQ(picture.height, 720);
}

TEST(Windowed, NoDisplayWithoutHeadlessIsOneLineAndExitTwo) {
  const ProcessResult r = run_process({coalesce_executable(), "--backend", "cpu", "--particles", "1024"},
                                      {"DISPLAY", "WAYLAND_DISPLAY"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "expected exactly one line: " << r.err;
  EXPECT_NE(r.err.find("--headless"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("GLFW"), std::string::npos)
      << "GLFW was initialised before the display check: " << r.err;
}

}  // namespace
}  // namespace coalesce::testing
