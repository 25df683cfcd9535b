// Test support for the viewer tests: the viewer's command line, finding programs on PATH (xvfb-run), and
// decoding screenshots to check their pixels. Running it is tests/support/process.h's run_process.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <stb_image.h>

#include "tests/support/process.h"

namespace coalesce::testing {

// One viewer run's options; each test states only what it is about.
struct ViewerArgs {
  bool headless = true;
  std::string backend = "cpu";
  std::string scene = "galaxies";
  int particles = 2048;
  std::string layout = "soa";  // "" leaves the default
  int frames = 6;
  int width = 1280;
  int height = 900;
  std::string screenshot;  // "" takes none
  std::vector<std::string> extra;
};

inline std::vector<std::string> viewer_command(const ViewerArgs& a) {
  std::vector<std::string> command{coalesce_executable()};
  if (a.headless) command.push_back("--headless");
  const auto add = [&command](const char* flag, const std::string& value) {
    command.push_back(flag);
    command.push_back(value);
  };
  add("--backend", a.backend);
  add("--scene", a.scene);
  add("--particles", std::to_string(a.particles));
  if (!a.layout.empty()) add("--layout", a.layout);
  add("--frames", std::to_string(a.frames));
  add("--width", std::to_string(a.width));
  add("--height", std::to_string(a.height));
  if (!a.screenshot.empty()) add("--screenshot", a.screenshot);
  command.insert(command.end(), a.extra.begin(), a.extra.end());
  return command;
}

inline bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    if (!dir.empty() && ::access((dir + "/" + program).c_str(), X_OK) == 0) return true;
  }
  return false;
}

// A decoded RGBA screenshot.
struct Picture {
  int width = 0;
  int height = 0;
  std::vector<unsigned char> rgba;
  const unsigned char* at(int x, int y) const { return &rgba[(static_cast<size_t>(y) * width + x) * 4]; }
  int luminance(int x, int y) const {
    const unsigned char* p = at(x, y);
    return (p[0] * 3 + p[1] * 6 + p[2]) / 10;
  }
};

inline Picture load_picture(const std::string& path) {
  Picture picture;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &picture.width, &picture.height, &channels, 4);
  if (!data) return picture;
  picture.rgba.assign(data, data + static_cast<size_t>(picture.width) * picture.height * 4);
  stbi_image_free(data);
  return picture;
}

}  // namespace coalesce::testing
