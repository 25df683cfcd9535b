// current_gl_driver and the interop notice (see gl_driver.h).
#include "render/gl_driver.h"

#include "render/gl_api.h"

namespace coalesce {
namespace {

std::string gl_string(GLenum name) {
  const GLubyte* text = glGetString(name);
  return text ? reinterpret_cast<const char*>(text) : "unknown";
}

}  // namespace

bool GlDriver::is_nvidia() const {
  return vendor.find("NVIDIA") != std::string::npos || renderer.find("NVIDIA") != std::string::npos;
}

bool GlDriver::is_software() const {
  for (const char* name : {"llvmpipe", "softpipe", "swrast"})
    if (renderer.find(name) != std::string::npos) return true;
  return false;
}

GlDriver current_gl_driver() {
  return {gl_string(GL_VENDOR), gl_string(GL_RENDERER)};
}

std::string interop_unavailable_notice(const GlDriver& driver, const std::string& cuda_error) {
  if (!driver.is_nvidia())
    return "CUDA-GL interop unavailable: this window's OpenGL is " + driver.renderer + " (" + driver.vendor +
           "), not the NVIDIA driver, so frames take the copy path (slower); run with --headless to render "
           "on the GPU, or start the display on the NVIDIA driver";
  return "CUDA-GL interop unavailable (" + cuda_error +
         "): frames take the copy path (slower); the GPU drawing the window may not be the CUDA device";
}

}  // namespace coalesce
