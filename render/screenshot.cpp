// Framebuffer read-back; render/png_image.h encodes it.
#include "render/screenshot.h"

#include <cstring>

#include "render/gl_check.h"

namespace coalesce {

Image read_framebuffer(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.resize(static_cast<size_t>(width) * height * 4);
  std::vector<std::uint8_t> bottom_up(image.rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  check_gl("reading the framebuffer back");
  const size_t row = static_cast<size_t>(width) * 4;
  for (int y = 0; y < height; ++y) {
    std::memcpy(&image.rgba[static_cast<size_t>(y) * row],
                &bottom_up[static_cast<size_t>(height - 1 - y) * row], row);
  }
  // The window may keep alpha < 1 where blending touched it; a screenshot is opaque.
  for (size_t i = 3; i < image.rgba.size(); i += 4) image.rgba[i] = 255;
  return image;
}

}  // namespace coalesce
