// Reads back the current framebuffer and writes it as a PNG (stb_image_write).
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

// glReadPixels of the bound read framebuffer, flipped so the first row is the top of the screen.
Image read_framebuffer(int width, int height);

// The image as PNG file bytes (stb_image_write); empty if encoding failed. The caller writes them through
// sim/output_file.h.
std::string encode_png(const Image& image);

}  // namespace coalesce
