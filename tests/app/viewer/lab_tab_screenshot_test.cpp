// --lab-tab on Mesa with the CPU backend: the headless run opens the Lab tab (here it shows the "needs a
// CUDA device" line) and writes the screenshot and its JSON; an unknown experiment is a usage error.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/lab/lab_service.h"
#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr int kWidth = 1000;
constexpr int kHeight = 700;

ProcessResult run_headless(const std::string& png, int particles, const std::vector<std::string>& extra) {
  return run_process(viewer_command({true, "cpu", "galaxies", particles, "soa", 6, kWidth, kHeight, png, extra}),
                     {"DISPLAY", "WAYLAND_DISPLAY"});
}

// Near-white (text) pixels in the panel below its frame lines, where the tabs' contents are.
int panel_text_below(const std::string& png, int top) {
  const Picture picture = load_picture(png);
  int text = 0;
  for (int y = top; y < picture.height; ++y)
    for (int x = 0; x < kPanelWidthPixels; ++x) text += picture.luminance(x, y) > 180;
  return text;
}

TEST(LabTabScreenshot, LabTabFlagOpensTheLabTabAndWritesTheShot) {
  TestRng rng;
  const int particles = rng.uniform_int(2048, 4096);
  TempDir dir;
  const std::string lab_png = dir.file("lab.png"), viewer_png = dir.file("viewer.png");
  const ProcessResult lab = run_headless(lab_png, particles, {"--lab-tab", "transpose"});
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

// The registry is built with CUDA, device or not: the name is checked before any window or file.
TEST(LabTabScreenshot, UnknownExperimentIsOneLineAndExitTwo) {
  if (lab_experiment_list().empty())
    GTEST_SKIP() << "skipped: a build without CUDA has no lab experiments to check the name against";
  TestRng rng;
  const std::string name = "no-such-experiment-" + std::to_string(rng.uniform_int(0, 1 << 20));
  TempDir dir;
  const std::string png = dir.file("unknown.png");
  const ProcessResult r = run_headless(png, 2048, {"--lab-tab", name});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_NE(lines[0].find("--lab-tab: unknown lab experiment '" + name + "'"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("transpose"), std::string::npos) << "the line lists the experiments: " << lines[0];
  EXPECT_FALSE(std::filesystem::exists(png));
}

}  // namespace
}  // namespace coalesce::testing
