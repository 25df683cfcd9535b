// Framebuffer read-back and PNG encoding; errors come back as text so the caller can show them.
#include "render/screenshot.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include <stb_image_write.h>

#include "render/gl_api.h"

namespace coalesce {

Image read_framebuffer(int width, int height) {
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.resize(static_cast<size_t>(width) * height * 4);
  std::vector<std::uint8_t> bottom_up(image.rgba.size());
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  const size_t row = static_cast<size_t>(width) * 4;
  for (int y = 0; y < height; ++y) {
    std::memcpy(&image.rgba[static_cast<size_t>(y) * row],
                &bottom_up[static_cast<size_t>(height - 1 - y) * row], row);
  }
  // The window may keep alpha < 1 where blending touched it; a screenshot is opaque.
  for (size_t i = 3; i < image.rgba.size(); i += 4) image.rgba[i] = 255;
  return image;
}

std::string write_png(const std::string& path, const Image& image) {
  // fopen first, so a bad path reports the system's reason rather than stb's bare failure.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!file) return "cannot write screenshot " + path + ": " + std::strerror(errno);
  auto sink = [](void* context, void* data, int size) {
    std::fwrite(data, 1, static_cast<size_t>(size), static_cast<std::FILE*>(context));
  };
  const int ok = stbi_write_png_to_func(sink, file.get(), image.width, image.height, 4, image.rgba.data(),
                                        image.width * 4);
  if (!ok || std::ferror(file.get()))
    return "cannot write screenshot " + path + ": PNG encoding or write failed";
  if (std::fclose(file.release()) != 0)
    return "cannot write screenshot " + path + ": " + std::strerror(errno);
  return {};
}

}  // namespace coalesce
