// A PNG decoded to RGBA for the tests that check pixels (viewer screenshots and clips, bench plots).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <stb_image.h>

namespace coalesce::testing {

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

// Empty (width 0) when the file is missing or is no image stb can read.
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
