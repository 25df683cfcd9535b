// Interop registration with its copy fallback; the one place the viewer touches CUDA-GL interop.
#include "app/viewer/viewer_render_path.h"

#include <algorithm>
#include <cmath>

#include "render/gl_api.h"
#include "render/gl_driver.h"
#include "sim/particle.h"

namespace coalesce {

const char* to_string(RenderPathMode mode) {
  switch (mode) {
    case RenderPathMode::Interop:
      return "CUDA-GL interop (map, pack kernel, unmap)";
    case RenderPathMode::Copy:
      return "copy fallback (device -> host -> glBufferSubData)";
    case RenderPathMode::HostUpload:
      return "CPU upload (glBufferSubData)";
  }
  return "?";
}

RenderPath::RenderPath(Backend& backend, InteropUse interop, InteropAccess access, ParticleRenderer& renderer) {
  renderer.resize(backend.particle_count());
  if (!backend.device_info().gpu) return;  // the CPU backend uploads from host memory
  m_mode = RenderPathMode::Copy;
  if (interop == InteropUse::Off) {
    m_notice = "CUDA-GL interop off (--no-interop): frames take the copy path (slower)";
    return;
  }
  try {
    m_interop = std::make_unique<InteropBuffer>(renderer.buffer_id(), access);
    m_mode = RenderPathMode::Interop;
  } catch (const InteropError& e) {
    m_notice = interop_unavailable_notice(current_gl_driver(), e.what());
  }
}

RenderPath::~RenderPath() = default;

void RenderPath::update(Backend& backend, PackVariant variant, ParticleRenderer& renderer) {
  const int n = backend.particle_count();
  if (m_mode == RenderPathMode::Interop) {
    const InteropBuffer::Mapping mapping = m_interop->map(native_stream_of(backend));
    if (mapping.bytes() < renderer.buffer_bytes())
      throw InteropError("the mapped render buffer is too small");
    backend.pack(variant, mapping.data(), MemorySpace::Device);
    return;
  }
  m_host.resize(static_cast<size_t>(n) * kRenderFloatsPerParticle);
  backend.pack(variant, m_host.data(), MemorySpace::Host);
  renderer.upload(m_host.data(), n);
}

std::optional<std::int64_t> RenderPath::find_non_finite(const ParticleRenderer& renderer) const {
  const float* data = m_host.data();
  size_t count = m_host.size();
  std::vector<float> sample;
  if (m_mode == RenderPathMode::Interop) {
    // 64K particles (1 MiB): enough for all-pairs, where one NaN spreads to every body in a step.
    const size_t particles = std::min<size_t>(static_cast<size_t>(renderer.particles()), 65536);
    sample.resize(particles * kRenderFloatsPerParticle);
    glBindBuffer(GL_ARRAY_BUFFER, renderer.buffer_id());
    glGetBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(sample.size() * sizeof(float)),
                       sample.data());
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    data = sample.data();
    count = sample.size();
  }
  for (size_t i = 0; i < count; ++i) {
    if (!std::isfinite(data[i])) return static_cast<std::int64_t>(i / kRenderFloatsPerParticle);
  }
  return std::nullopt;
}

}  // namespace coalesce
