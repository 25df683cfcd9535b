// COALESCE_VIEWER_LAB on Mesa with the CPU backend: the headless run opens the Lab tab (here it shows the
// "needs a CUDA device" line), writes the screenshot and its JSON and exits 0, also for an unknown name.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/render/screenshot_checks.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr int kWidth = 1000;
constexpr int kHeight = 700;

ProcessResult run_headless(const std::string& png, int particles, const std::vector<std::string>& env) {
  return run_process({coalesce_executable(), "--headless", "--backend", "cpu", "--scene", "galaxies",
                      "--particles", std::to_string(particles), "--layout", "soa", "--frames", "6", "--width",
                      std::to_string(kWidth), "--height", std::to_string(kHeight), "--screenshot", png},
                     {"DISPLAY", "WAYLAND_DISPLAY", "COALESCE_VIEWER_LAB", "COALESCE_VIEWER_LAB_SIZE"}, env);
}

// Near-white (text) pixels in the panel below its frame lines, where the tabs' contents are.
int panel_text_below(const std::string& png, int top) {
  const Picture picture = load_picture(png);
  int text = 0;
  for (int y = top; y < picture.height; ++y)
    for (int x = 0; x < kPanelWidthPixels; ++x) text += picture.luminance(x, y) > 180;
  return text;
}

TEST(LabTabScreenshot, LabHookOpensTheLabTabAndWritesTheShot) {
  TestRng rng;
  const int particles = rng.uniform_int(2048, 4096);
  TempDir dir;
  const std::string lab_png = dir.file("lab.png"), viewer_png = dir.file("viewer.png");
  const ProcessResult lab = run_headless(lab_png, particles, {"COALESCE_VIEWER_LAB=transpose"});
  ASSERT_EQ(lab.exit_code, 0) << lab.err;
  ASSERT_TRUE(std::filesystem::exists(lab_png));
  const auto j = load_screenshot_json(dir.file("lab.json"));
  expect_screenshot_json(j, particles, "soa");
  const ProcessResult viewer = run_headless(viewer_png, particles, {});
  ASSERT_EQ(viewer.exit_code, 0) << viewer.err;
  // The Viewer tab fills the panel with tables and controls; the Lab tab without CUDA is one line.
  const int lab_text = panel_text_below(lab_png, 200), viewer_text = panel_text_below(viewer_png, 200);
  EXPECT_LT(lab_text * 3, viewer_text) << "the Lab tab does not look selected (lab " << lab_text
                                       << " text pixels, viewer " << viewer_text << ")";
}

TEST(LabTabScreenshot, UnknownExperimentDoesNotCrash) {
  TempDir dir;
  const std::string png = dir.file("unknown.png");
  const ProcessResult r =
      run_headless(png, 2048, {"COALESCE_VIEWER_LAB=no-such-experiment", "COALESCE_VIEWER_LAB_SIZE=777"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(png));
  EXPECT_TRUE(std::filesystem::exists(dir.file("unknown.json")));
}

}  // namespace
}  // namespace coalesce::testing
