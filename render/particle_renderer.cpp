// Point-sprite drawing of the packed render buffer (shaders/particles.*) into an RGBA16F light buffer,
// then the tone-map pass (shaders/tonemap.*) into the caller's framebuffer.
#include "render/particle_renderer.h"

#include <algorithm>
#include <string>

#include <glm/gtc/type_ptr.hpp>

#include "render/gl_check.h"
#include "render/shader_program.h"
#include "sim/particle.h"
#include "sim/sprite_light.h"

namespace coalesce {

ParticleRenderer::ParticleRenderer()
    : m_program(load_program("particles.vert", "particles.frag")),
      m_tonemap(load_program("tonemap.vert", "tonemap.frag")) {
  glBindVertexArray(m_vertex_array.id());
  glBindBuffer(GL_ARRAY_BUFFER, m_buffer.id());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, kRenderFloatsPerParticle * sizeof(float), nullptr);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("setting up the particle renderer");
}

std::size_t ParticleRenderer::buffer_bytes() const {
  return static_cast<std::size_t>(m_particles) * kRenderFloatsPerParticle * sizeof(float);
}

void ParticleRenderer::resize(int particles) {
  m_particles = particles;
  glBindBuffer(GL_ARRAY_BUFFER, m_buffer.id());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(buffer_bytes()), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  // GL_OUT_OF_MEMORY here would otherwise surface as a blank or garbage picture.
  check_gl("allocating the render buffer for " + std::to_string(particles) + " particles");
}

void ParticleRenderer::upload(const float* data, int particles) {
  glBindBuffer(GL_ARRAY_BUFFER, m_buffer.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0,
                  static_cast<GLsizeiptr>(particles) * kRenderFloatsPerParticle * sizeof(float), data);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  check_gl("uploading the render buffer");
}

void ParticleRenderer::ensure_light_buffer(int width, int height) {
  if (width == m_light_width && height == m_light_height) return;
  // Float light: 8-bit additive blending would round away the faint contributions of large N.
  glBindTexture(GL_TEXTURE_2D, m_light.id());
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, width, height, 0, GL_RGBA, GL_FLOAT, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, m_light_framebuffer.id());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, m_light.id(), 0);
  check_gl("allocating the " + std::to_string(width) + "x" + std::to_string(height) + " light buffer");
  m_light_width = width;
  m_light_height = height;
}

void ParticleRenderer::draw_points(const OrbitCamera& camera, int width, int height,
                                   const SpriteStyle& style) const {
  const float aspect = static_cast<float>(width) / static_cast<float>(height);
  const glm::mat4 view = camera.view();
  const glm::mat4 projection = camera.projection(aspect);
  const GLuint p = m_program.id();
  glUseProgram(p);
  glUniformMatrix4fv(glGetUniformLocation(p, "u_view"), 1, GL_FALSE, glm::value_ptr(view));
  glUniformMatrix4fv(glGetUniformLocation(p, "u_projection"), 1, GL_FALSE, glm::value_ptr(projection));
  glUniform1f(glGetUniformLocation(p, "u_point_size"), style.point_size);
  glUniform1f(glGetUniformLocation(p, "u_viewport_height"), static_cast<float>(height));
  glUniform1f(glGetUniformLocation(p, "u_speed_scale"), 1.0f / std::max(style.max_speed, 1e-6f));
  glUniform1f(glGetUniformLocation(p, "u_intensity"), style.intensity);
  glUniform1f(glGetUniformLocation(p, "u_max_pixels"), style.max_pixels);
  // The sprite rule and colour map from their one definition (sim/sprite_light.h), not a GLSL copy.
  glUniform1f(glGetUniformLocation(p, "u_flat_point_pixels"), kFlatPointPixels);
  glUniform1f(glGetUniformLocation(p, "u_gaussian_fill"), kGaussianFill);
  float at[kColourStops];
  float rgb[kColourStops][3];
  for (int i = 0; i < kColourStops; ++i) {
    const ColourStop stop = colour_stop(i);
    at[i] = stop.at;
    rgb[i][0] = stop.r;
    rgb[i][1] = stop.g;
    rgb[i][2] = stop.b;
  }
  glUniform1fv(glGetUniformLocation(p, "u_colour_at"), kColourStops, at);
  glUniform3fv(glGetUniformLocation(p, "u_colour_rgb"), kColourStops, &rgb[0][0]);
  // Additive blending without depth: a glowing, order-independent cloud.
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glBindVertexArray(m_vertex_array.id());
  // A draw limit reads every stride-th record through the attribute stride: no copy, no index buffer.
  const int stride = std::max(style.stride, 1);
  glBindBuffer(GL_ARRAY_BUFFER, m_buffer.id());
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, stride * kRenderFloatsPerParticle * sizeof(float), nullptr);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  glDrawArrays(GL_POINTS, 0, drawn_count(m_particles, stride));
  glBindVertexArray(0);
  glDisable(GL_BLEND);
}

void ParticleRenderer::draw(const OrbitCamera& camera, const Viewport& viewport, const SpriteStyle& style) {
  if (viewport.width <= 0 || viewport.height <= 0) return;
  GLint target = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
  ensure_light_buffer(viewport.width, viewport.height);

  glBindFramebuffer(GL_FRAMEBUFFER, m_light_framebuffer.id());
  glViewport(0, 0, viewport.width, viewport.height);
  glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  if (m_particles > 0) draw_points(camera, viewport.width, viewport.height, style);
  check_gl("drawing the particles");

  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(target));
  draw_light(m_light.id(), viewport, style);
}

void ParticleRenderer::draw_light(GLuint light, const Viewport& viewport, const SpriteStyle& style) {
  if (viewport.width <= 0 || viewport.height <= 0) return;
  glViewport(viewport.x, viewport.y, viewport.width, viewport.height);
  const GLuint t = m_tonemap.id();
  glUseProgram(t);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, light);
  glUniform1i(glGetUniformLocation(t, "u_light"), 0);
  glUniform3fv(glGetUniformLocation(t, "u_background"), 1, style.background);
  glUniform1f(glGetUniformLocation(t, "u_exposure"), 1.0f);
  glBindVertexArray(m_empty_vertex_array.id());
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glBindTexture(GL_TEXTURE_2D, 0);
  glUseProgram(0);
  check_gl("tone-mapping the light buffer");
}

}  // namespace coalesce
