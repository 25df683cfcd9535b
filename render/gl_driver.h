// Which OpenGL driver the current context runs on, and what that means for CUDA-GL interop: interop needs
// NVIDIA's GL driver, so a window on Mesa (llvmpipe, Xvfb) gets the copy path, and the panel says why.
#pragma once

#include <string>

namespace coalesce {

struct GlDriver {
  std::string vendor;    // GL_VENDOR: "NVIDIA Corporation", "Mesa", ...
  std::string renderer;  // GL_RENDERER: "NVIDIA H100 80GB HBM3/PCIe/SSE2", "llvmpipe (LLVM 15.0.6, 256 bits)"
  bool is_nvidia() const;
  // Mesa's software rasterizers (llvmpipe, softpipe, swrast): "GPU" time is then the CPU's.
  bool is_software() const;
};

GlDriver current_gl_driver();  // of the current context

// The notice for a failed interop registration: the cause in the user's terms and what to do about it.
// `cuda_error` is CUDA's own words, kept for an NVIDIA driver where the cause is something else.
std::string interop_unavailable_notice(const GlDriver& driver, const std::string& cuda_error);

}  // namespace coalesce
