// SplatRenderer for builds without CUDA: it cannot exist, so the viewer draws points.
#include "render/splat_renderer.h"

#include "render/interop_buffer.h"

namespace coalesce {

struct SplatRenderer::Resources {};

SplatRenderer::SplatRenderer() {
  throw InteropError("this build has no CUDA, so no CUDA splat");
}
SplatRenderer::~SplatRenderer() = default;
GLuint SplatRenderer::light_texture() const {
  return 0;
}
void SplatRenderer::splat(const float*, int, const OrbitCamera&, const Viewport&, const SpriteStyle&,
                          CUstream_st*) {}
std::optional<double> SplatRenderer::poll_ms() {
  return std::nullopt;
}
double SplatRenderer::wait_ms() {
  return 0.0;
}

}  // namespace coalesce
