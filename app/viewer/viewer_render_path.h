// How packed particles reach the render buffer: CUDA-GL interop (map, pack kernel, unmap), the copy
// fallback when registration fails (pack to host, glBufferSubData), or the CPU backend's upload.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/interop_buffer.h"
#include "render/particle_renderer.h"
#include "sim/backend.h"

namespace coalesce {

enum class RenderPathMode { Interop, Copy, HostUpload };
const char* to_string(RenderPathMode mode);

enum class InteropUse { Allowed, Off };  // Off: --no-interop, the copy path even where interop works

class RenderPath {
 public:
  // Resizes the renderer's buffer to the backend's N and registers it when the backend is CUDA and
  // `interop` allows it.
  // `access`: ReadWrite where the CUDA splat may read the packed buffer back.
  RenderPath(Backend& backend, InteropUse interop, InteropAccess access, ParticleRenderer& renderer);
  ~RenderPath();
  RenderPath(const RenderPath&) = delete;
  RenderPath& operator=(const RenderPath&) = delete;

  // Packs the current state into the render buffer.
  void update(Backend& backend, PackVariant variant, ParticleRenderer& renderer);

  RenderPathMode mode() const { return m_mode; }
  const std::string& notice() const { return m_notice; }  // empty unless the CUDA backend copies
  // The registered render buffer on the interop path (the CUDA splat maps it to read), else null.
  InteropBuffer* interop() const { return m_interop.get(); }

  // Index of a particle with a non-finite position or speed, if one is seen. Host paths scan all of
  // them; the interop path reads back a bounded sample of the GL buffer so the check stays cheap.
  std::optional<std::int64_t> find_non_finite(const ParticleRenderer& renderer) const;

 private:
  RenderPathMode m_mode = RenderPathMode::HostUpload;
  std::unique_ptr<InteropBuffer> m_interop;
  std::vector<float> m_host;  // copy and CPU paths: the packed buffer on the host
  std::string m_notice;
};

}  // namespace coalesce
