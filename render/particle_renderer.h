// Draws the N x {x, y, z, speed} render buffer as point sprites: Gaussian falloff, additive blending,
// colour by speed, size attenuated with distance. Owns the buffer that the pack writes into.
#pragma once

#include <cstddef>

#include "render/gl_objects.h"
#include "render/orbit_camera.h"

namespace coalesce {

struct SpriteStyle {
  float point_size = 0.02f;  // world-space diameter
  float max_speed = 1.0f;    // speed at the top of the colour map
  float intensity = 1.0f;    // per-particle brightness
};

class ParticleRenderer {
 public:
  ParticleRenderer();

  // (Re)allocates the render buffer for `particles` records; its contents are undefined until written.
  void resize(int particles);
  // The CPU and copy paths: uploads particles x 4 floats with glBufferSubData.
  void upload(const float* data, int particles);
  void draw(const OrbitCamera& camera, int viewport_width, int viewport_height,
            const SpriteStyle& style) const;

  GLuint buffer_id() const { return m_buffer.id(); }
  int particles() const { return m_particles; }
  std::size_t buffer_bytes() const;

 private:
  GlProgram m_program;
  GlVertexArray m_vertex_array;
  GlBuffer m_buffer;
  int m_particles = 0;
};

}  // namespace coalesce
