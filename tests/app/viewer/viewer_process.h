// Test support for the viewer tests: finds programs on PATH (xvfb-run) and decodes screenshots to check
// their pixels. Running the viewer is tests/support/process.h's run_process.
#pragma once

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <stb_image.h>

#include "tests/support/process.h"

namespace coalesce::testing {

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
