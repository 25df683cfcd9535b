// The CUDA splat path of the draw: particles splatted by a CUDA kernel (render/splat_kernel.cu) into a
// float light buffer, copied into a GL texture through interop, then ParticleRenderer's tone map as the
// point path uses it. Header free of CUDA; without CUDA the constructor throws InteropError.
#pragma once

#include <memory>
#include <optional>

#include "render/gl_api.h"
#include "render/orbit_camera.h"
#include "render/particle_renderer.h"

struct CUstream_st;

namespace coalesce {

class SplatRenderer {
 public:
  SplatRenderer();  // throws InteropError where this build has no CUDA
  ~SplatRenderer();
  SplatRenderer(const SplatRenderer&) = delete;
  SplatRenderer& operator=(const SplatRenderer&) = delete;

  // Splats `particles` packed records (device memory, x y z |v|; every style.stride-th one drawn) into
  // the light texture of viewport's size, on `stream`: clear, kernel, copy into the texture, all
  // bracketed by CUDA events. Throws InteropError if the texture cannot be registered.
  void splat(const float* packed, int particles, const OrbitCamera& camera, const Viewport& viewport,
             const SpriteStyle& style, CUstream_st* stream);
  GLuint light_texture() const;

  std::optional<double> poll_ms();  // GPU time of the newest finished splat; never waits
  double wait_ms();                 // waits for the last splat's GPU time: start-up measurement only

 private:
  struct Resources;
  std::unique_ptr<Resources> m;
};

}  // namespace coalesce
