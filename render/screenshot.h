// Reads back the current framebuffer as an Image; render/png_image.h encodes it as PNG.
#pragma once

#include "render/png_image.h"  // Image, encode_png

namespace coalesce {

// glReadPixels of the bound read framebuffer, flipped so the first row is the top of the screen.
Image read_framebuffer(int width, int height);

}  // namespace coalesce
