// The start size through the real executable, headless on the CPU backend (Mesa's software GL here): with
// no --particles the step is timed with the force scheme the run will use, then the first frames are timed
// whole and the run says, on stdout and in the screenshot JSON, what the frame took and what limited N; the
// N the JSON records is the one the frames' line settled on.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "sim/limits.h"
#include "sim/tree_settings.h"
#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

TEST(StartSizeFrames, TheFirstFramesSayWhatLimitedNAndTheRunKeepsIt) {
  TestRng rng;
  TempDir dir;
  const std::string png = dir.file("start.png");
  const std::string layout(to_string(random_layout(rng)));
  const int width = 320 * rng.uniform_int(2, 5), height = 240 * rng.uniform_int(2, 4);
  // No --particles: the viewer chooses N; 30 frames leave room for three trials of 8 frames.
  const std::vector<std::string> command{coalesce_executable(),
                                         "--headless",
                                         "--backend",
                                         "cpu",
                                         "--layout",
                                         layout,
                                         "--frames",
                                         "30",
                                         "--width",
                                         std::to_string(width),
                                         "--height",
                                         std::to_string(height),
                                         "--screenshot",
                                         png};
  const ProcessResult r = run_process(command, {"DISPLAY", "WAYLAND_DISPLAY"}, {}, 300);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  SCOPED_TRACE(r.out);
  std::smatch chosen, frames;
  // The step's line names what it timed (the galaxies' demo: the tree at the default theta).
  const std::string theta = std::regex_replace(exact_text(kDefaultTheta), std::regex(R"(\.)"), R"(\.)");
  ASSERT_TRUE(std::regex_search(r.out, chosen,
                                std::regex(R"(N = (\d+), chosen at start for this CPU: step [0-9.]+ ms \()"
                                           R"((tree theta )" +
                                           theta + R"()\) measured at \d+)")));
  const std::string line_regex = R"(N = (\d+) after the first frames: ([^\n]*); --particles N sets it)";
  ASSERT_TRUE(std::regex_search(r.out, frames, std::regex(line_regex)));
  const int first_n = std::stoi(chosen[1]);
  const int settled_n = std::stoi(frames[1]);
  const std::string reason = frames[2];
  EXPECT_LE(settled_n, first_n) << "never above the N the step chose";
  // One part per trial, joined by "; then ": the first at the step's N, each lowered N the next one's.
  std::vector<std::string> trials;
  for (std::size_t at = 0;;) {
    const std::size_t next = reason.find("; then ", at);
    trials.push_back(reason.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) break;
    at = next + 7;
  }
  ASSERT_LE(trials.size(), 3u);
  const std::regex trial_regex(R"(^frame ([0-9.]+) ms at (\d+) \(step ([0-9.]+) ms, the draw, the panel and )"
                               R"(the upload ([0-9.]+) ms\))");
  int expected_n = first_n;
  for (std::size_t i = 0; i < trials.size(); ++i) {
    const std::string& trial = trials[i];
    SCOPED_TRACE(trial);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(trial, m, trial_regex));
    EXPECT_EQ(std::stoi(m[2]), expected_n) << "each trial at the N the one before chose";
    // The frame is its step and the rest, as printed (each rounded to its digits).
    EXPECT_NEAR(std::stod(m[1]), std::stod(m[3]) + std::stod(m[4]), 0.02 + 0.005 * std::stod(m[1]));
    const bool last = i + 1 == trials.size();
    std::smatch lowered;
    if (std::regex_search(trial, lowered, std::regex(R"(limited N: lowered to (\d+)$)"))) {
      EXPECT_TRUE(trial.find("the step limited N") != std::string::npos ||
                  trial.find("the draw, the panel and the upload limited N") != std::string::npos);
      EXPECT_LT(std::stoi(lowered[1]), expected_n);
      expected_n = std::stoi(lowered[1]);
      if (last) {
        EXPECT_EQ(settled_n, expected_n) << "three trials: the last lowering stands";
      }
    } else if (trial.find("at any N") != std::string::npos) {
      // The rest alone is over a frame here: no N holds the rate, and the line says which N it keeps.
      EXPECT_TRUE(last);
      EXPECT_NE(trial.find("no N holds 30 FPS: N = " + std::to_string(settled_n) + ","), std::string::npos);
    } else {
      EXPECT_TRUE(last);
      EXPECT_NE(trial.find("within the 33.3 ms of a 30 FPS frame"), std::string::npos);
      EXPECT_EQ(settled_n, expected_n);
    }
  }
  const auto j = load_screenshot_json(dir.file("start.json"));
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j.at("settings").at("particles"), settled_n);
  EXPECT_EQ(j.at("start_size").at("particles"), settled_n);
  EXPECT_EQ(j.at("start_size").at("frames"), reason);
  EXPECT_NE(j.at("start_size").at("reason").get<std::string>().find("(" + std::string(chosen[2]) + ")"),
            std::string::npos);
}

// --particles wins: no trial, no frame check, no line.
TEST(StartSizeFrames, AGivenNIsNeverChecked) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(300, 3000);
  const ProcessResult r = run_process(
      viewer_command({true, "cpu", "galaxies", n, "soa", 12, 640, 480, dir.file("given.png"), {}}),
      {"DISPLAY", "WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("first frames"), std::string::npos) << r.out;
  const auto j = load_screenshot_json(dir.file("given.json"));
  EXPECT_TRUE(j.at("start_size").is_null());
  EXPECT_EQ(j.at("settings").at("particles"), n);
}

}  // namespace
}  // namespace coalesce::testing
