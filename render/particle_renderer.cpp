// Point-sprite drawing of the packed render buffer with the shaders in shaders/particles.*.
#include "render/particle_renderer.h"

#include <algorithm>

#include <glm/gtc/type_ptr.hpp>

#include "render/shader_program.h"
#include "sim/particle.h"

namespace coalesce {

ParticleRenderer::ParticleRenderer() : m_program(load_program("particles.vert", "particles.frag")) {
  glBindVertexArray(m_vertex_array.id());
  glBindBuffer(GL_ARRAY_BUFFER, m_buffer.id());
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, kRenderFloatsPerParticle * sizeof(float), nullptr);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

std::size_t ParticleRenderer::buffer_bytes() const {
  return static_cast<std::size_t>(m_particles) * kRenderFloatsPerParticle * sizeof(float);
}

void ParticleRenderer::resize(int particles) {
  m_particles = particles;
  glBindBuffer(GL_ARRAY_BUFFER, m_buffer.id());
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(buffer_bytes()), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void ParticleRenderer::upload(const float* data, int particles) {
  glBindBuffer(GL_ARRAY_BUFFER, m_buffer.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0,
                  static_cast<GLsizeiptr>(particles) * kRenderFloatsPerParticle * sizeof(float), data);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void ParticleRenderer::draw(const OrbitCamera& camera, int viewport_width, int viewport_height,
                            const SpriteStyle& style) const {
  if (m_particles == 0 || viewport_width <= 0 || viewport_height <= 0) return;
  const float aspect = static_cast<float>(viewport_width) / static_cast<float>(viewport_height);
  const glm::mat4 view = camera.view();
  const glm::mat4 projection = camera.projection(aspect);

  glUseProgram(m_program.id());
  glUniformMatrix4fv(glGetUniformLocation(m_program.id(), "u_view"), 1, GL_FALSE, glm::value_ptr(view));
  glUniformMatrix4fv(glGetUniformLocation(m_program.id(), "u_projection"), 1, GL_FALSE,
                     glm::value_ptr(projection));
  glUniform1f(glGetUniformLocation(m_program.id(), "u_point_size"), style.point_size);
  glUniform1f(glGetUniformLocation(m_program.id(), "u_viewport_height"), static_cast<float>(viewport_height));
  glUniform1f(glGetUniformLocation(m_program.id(), "u_speed_scale"), 1.0f / std::max(style.max_speed, 1e-6f));
  glUniform1f(glGetUniformLocation(m_program.id(), "u_intensity"), style.intensity);

  // Additive blending without depth: a glowing, order-independent cloud.
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glBindVertexArray(m_vertex_array.id());
  glDrawArrays(GL_POINTS, 0, m_particles);
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  glUseProgram(0);
}

}  // namespace coalesce
