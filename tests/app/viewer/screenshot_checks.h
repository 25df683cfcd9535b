// Shared assertions on a viewer screenshot: the panel is there (ImGui's window background, title bar,
// text) and so are the particles (bright pixels right of the panel); the JSON beside it has its keys.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/app/viewer/viewer_process.h"

namespace coalesce::testing {

constexpr int kPanelWidthPixels = 470;  // app/viewer/viewer_panel.h kPanelWidth

inline void expect_panel_and_particles(const std::string& png, int width, int height) {
  const Picture picture = load_picture(png);
  ASSERT_EQ(picture.width, width) << png;
  ASSERT_EQ(picture.height, height) << png;

  // Panel background: ImGui's dark WindowBg (0.06) at alpha 0.88 over the clear colour, about 14/255: the
  // panel's commonest colour (one fixed pixel would land on a widget whenever a section grows).
  std::map<std::array<unsigned char, 3>, int> colours;
  for (int y = 20; y < height; ++y)
    for (int x = 0; x < kPanelWidthPixels - 20; ++x)
      ++colours[{picture.at(x, y)[0], picture.at(x, y)[1], picture.at(x, y)[2]}];
  const auto background = std::max_element(colours.begin(), colours.end(), [](const auto& a, const auto& b) {
                            return a.second < b.second;
                          })->first;
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(background[c], 14, 4) << "panel background channel " << c;
  // Title bar: ImGui's blue title colour.
  const unsigned char* title = picture.at(kPanelWidthPixels / 2, 6);
  EXPECT_GT(title[2], title[0] + 20) << "title bar is not ImGui's blue";
  // Text: many near-white pixels inside the panel.
  int text = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < kPanelWidthPixels; ++x) text += picture.luminance(x, y) > 180;
  EXPECT_GT(text, 2000) << "the panel shows no text";

  // Particles: bright pixels right of the panel, and the clear colour in a corner.
  int bright = 0;
  for (int y = 0; y < height; ++y)
    for (int x = kPanelWidthPixels + 2; x < width; ++x) bright += picture.luminance(x, y) > 60;
  EXPECT_GT(bright, 300) << "no particles visible right of the panel";
  const unsigned char* corner = picture.at(width - 3, 2);
  EXPECT_LT(corner[0] + corner[1] + corner[2], 40) << "the corner is not the dark background";
}

inline nlohmann::json load_screenshot_json(const std::string& path) {
  const std::string text = read_file(path);
  EXPECT_FALSE(text.empty()) << path << " is missing";
  return nlohmann::json::parse(text, nullptr, false);
}

inline void expect_screenshot_json(const nlohmann::json& j, int particles, const std::string& layout) {
  ASSERT_FALSE(j.is_discarded()) << "the screenshot JSON does not parse";
  EXPECT_EQ(j.at("schema"), "coalesce-screenshot/3");
  for (const char* key : {"device", "backend", "render", "settings", "simulation", "frame", "kernels",
                          "compare", "notices", "image", "camera"}) {
    EXPECT_TRUE(j.contains(key)) << "missing key " << key;
  }
  EXPECT_FALSE(j.at("device").at("name").get<std::string>().empty());
  EXPECT_TRUE(j.at("device").contains("copy_peak_gbps"));
  EXPECT_EQ(j.at("settings").at("particles"), particles);
  EXPECT_EQ(j.at("settings").at("layout"), layout);
  // Everything is drawn unless N exceeds the draw limit (0 = no limit; the default is 4194304).
  const int draw_limit = j.at("settings").at("draw_limit").get<int>();
  EXPECT_GE(draw_limit, 0);
  if (draw_limit == 0 || particles <= draw_limit) {
    EXPECT_EQ(j.at("render").at("drawn_particles"), particles);
  }
  EXPECT_GT(j.at("frame").at("fps").get<double>(), 0.0);
  EXPECT_GT(j.at("simulation").at("step").get<int>(), 0);
  for (const char* kernel : {"forces", "integrate", "pack"}) {
    ASSERT_TRUE(j.at("kernels").contains(kernel)) << "no live numbers for " << kernel;
    EXPECT_GT(j.at("kernels").at(kernel).at("gigabytes_per_second").get<double>(), 0.0) << kernel;
    EXPECT_FALSE(j.at("kernels").at(kernel).at("byte_formula").get<std::string>().empty()) << kernel;
  }
  EXPECT_GT(j.at("kernels").at("forces").at("interactions_per_second").get<double>(), 0.0);
  // Pair gravity (all-pairs, the tree) is judged by interactions/s; the memory-bound kernels by GB/s.
  const bool pair_gravity = j.at("settings").at("solver") != "attractors";
  EXPECT_EQ(j.at("kernels").at("forces").at("metric"),
            pair_gravity ? "interactions_per_second" : "gigabytes_per_second");
  EXPECT_EQ(j.at("kernels").at("integrate").at("metric"), "gigabytes_per_second");
  // The interop share is a fraction of the frame, and the frame's CPU times are all there.
  const auto& frame = j.at("frame");
  for (const char* key : {"simulation_ms", "upload_ms", "render_cpu_ms", "interop_ms"})
    EXPECT_GE(frame.at(key).get<double>(), 0.0) << key;
  EXPECT_FALSE(frame.contains("render_ms")) << "the draw's CPU time has one name, render_cpu_ms";
  const double share = frame.at("interop_share_of_frame").get<double>();
  EXPECT_GT(share, 0.0);
  EXPECT_LT(share, 1.0);
  EXPECT_GE(share, frame.at("upload_share_of_frame").get<double>());
  EXPECT_TRUE(j.at("compare").at(layout).contains("integrate"));
}

}  // namespace coalesce::testing
