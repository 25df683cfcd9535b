// An RGBA image and its PNG encoding (stb_image_write), with no GL: the screenshots and bench's --plot
// both write through it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace coalesce {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  // top row first
};

// The image as PNG file bytes (stb_image_write); empty if encoding failed. The caller writes them through
// sim/output_file.h.
std::string encode_png(const Image& image);

}  // namespace coalesce
