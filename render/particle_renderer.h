// Draws the N x {x, y, z, speed} render buffer as point sprites: Gaussian falloff, additive blending
// into a float light buffer, colour by speed, size attenuated with distance; a tone-map pass then puts
// the light on screen. Owns the buffer that the pack writes into.
#pragma once

#include <algorithm>
#include <cstddef>

#include "render/gl_objects.h"
#include "render/orbit_camera.h"

namespace coalesce {

struct SpriteStyle {
  float point_size = 0.02f;  // world-space diameter
  float max_speed = 1.0f;    // speed at the top of the colour map
  float intensity = 1.0f;    // per-particle light
  float max_pixels = 64.0f;  // the largest sprite, in pixels
  int stride = 1;            // draw every stride-th particle (a draw limit; 1: all of them)
  float background[3] = {0.015f, 0.015f, 0.03f};
};

// A pixel rectangle of the bound framebuffer, origin bottom-left as in glViewport.
struct Viewport {
  int x = 0;
  int y = 0;
  int width = 0;
  int height = 0;
};

class ParticleRenderer {
 public:
  ParticleRenderer();

  // (Re)allocates the render buffer for `particles` records; its contents are undefined until written.
  void resize(int particles);
  // The CPU and copy paths: uploads particles x 4 floats with glBufferSubData.
  void upload(const float* data, int particles);
  // Draws into `viewport` of the framebuffer bound when called (restored on return).
  void draw(const OrbitCamera& camera, const Viewport& viewport, const SpriteStyle& style);
  // The tone-map pass alone, from a light texture of viewport's size made elsewhere (the CUDA splat).
  void draw_light(GLuint light, const Viewport& viewport, const SpriteStyle& style);

  GLuint buffer_id() const { return m_buffer.id(); }
  int particles() const { return m_particles; }
  static int drawn_count(int particles, int stride) { return (particles + stride - 1) / std::max(stride, 1); }
  std::size_t buffer_bytes() const;

 private:
  void ensure_light_buffer(int width, int height);
  void draw_points(const OrbitCamera& camera, int width, int height, const SpriteStyle& style) const;

  GlProgram m_program;
  GlProgram m_tonemap;
  GlVertexArray m_vertex_array;
  GlVertexArray m_empty_vertex_array;  // core profile needs a bound VAO even for attribute-less draws
  GlBuffer m_buffer;
  GlFramebuffer m_light_framebuffer;
  GlTexture m_light;
  int m_light_width = 0;
  int m_light_height = 0;
  int m_particles = 0;
};

}  // namespace coalesce
