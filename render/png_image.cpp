// PNG encoding of an RGBA image; the caller writes the bytes (sim/output_file.h).
#include "render/png_image.h"

#include <stb_image_write.h>

namespace coalesce {

std::string encode_png(const Image& image) {
  std::string bytes;
  auto sink = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
  };
  if (!stbi_write_png_to_func(sink, &bytes, image.width, image.height, 4, image.rgba.data(), image.width * 4))
    return {};
  return bytes;
}

}  // namespace coalesce
