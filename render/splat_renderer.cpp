// SplatRenderer with CUDA: owns the light buffer, the registered texture and the event ring, and
// reallocates the first two when the viewport's size changes.
#include "render/splat_renderer.h"

#include <algorithm>

#include <glm/gtc/type_ptr.hpp>

#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"
#include "render/gl_check.h"
#include "render/gl_objects.h"
#include "render/splat_kernel.h"
#include "render/splat_resources.h"

namespace coalesce {

// The atomics the viewer splats with: the fastest measured on the H100 (docs/viewer.md, "Splat").
constexpr SplatAtomics kViewerAtomics = SplatAtomics::Vector;

struct SplatRenderer::Resources {
  GlTexture texture;
  std::unique_ptr<RegisteredImage> image;  // registered after the texture has its size
  DeviceBuffer<Float4> light;              // width x height, w unused
  int width = 0;
  int height = 0;
  CudaEventRing timer;
};

SplatRenderer::SplatRenderer() : m(std::make_unique<Resources>()) {}
SplatRenderer::~SplatRenderer() = default;

GLuint SplatRenderer::light_texture() const {
  return m->texture.id();
}

void SplatRenderer::splat(const float* packed, int particles, const OrbitCamera& camera,
                          const Viewport& viewport, const SpriteStyle& style, CUstream_st* stream) {
  if (viewport.width <= 0 || viewport.height <= 0) return;
  if (viewport.width != m->width || viewport.height != m->height) {
    m->image.reset();  // unregister before the texture's storage changes
    m->texture = GlTexture();
    glBindTexture(GL_TEXTURE_2D, m->texture.id());
    // RGBA32F: the CUDA light is fp32, and the tone map samples it with NEAREST as the GL path's RGBA16F.
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, viewport.width, viewport.height, 0, GL_RGBA, GL_FLOAT,
                 nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    check_gl("allocating the splat's light texture");
    m->light = DeviceBuffer<Float4>(static_cast<std::size_t>(viewport.width) * viewport.height);
    m->image = std::make_unique<RegisteredImage>(m->texture.id());
    m->width = viewport.width;
    m->height = viewport.height;
  }
  const float aspect = static_cast<float>(viewport.width) / static_cast<float>(viewport.height);
  SplatParams p;
  const glm::mat4 view = camera.view();
  const glm::mat4 projection = camera.projection(aspect);
  std::copy(glm::value_ptr(view), glm::value_ptr(view) + 16, p.view);
  std::copy(glm::value_ptr(projection), glm::value_ptr(projection) + 16, p.projection);
  p.width = viewport.width;
  p.height = viewport.height;
  p.particles = particles;
  p.stride = std::max(style.stride, 1);
  p.point_size = style.point_size;
  p.speed_scale = 1.0f / std::max(style.max_speed, 1e-6f);
  p.intensity = style.intensity;
  p.max_pixels = style.max_pixels;

  m->timer.begin(stream);
  COALESCE_CUDA_CHECK(cudaMemsetAsync(m->light.data(), 0, m->light.bytes(), stream));
  launch_splat(reinterpret_cast<const Float4*>(packed), p, m->light.data(), kViewerAtomics, stream);
  m->image->copy_from(m->light.data(), m->width, m->height, stream);
  m->timer.end(stream);
}

std::optional<double> SplatRenderer::poll_ms() {
  return m->timer.poll();
}

double SplatRenderer::wait_ms() {
  return m->timer.wait_last();
}

}  // namespace coalesce
