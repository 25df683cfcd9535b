// Orbit camera (GLM): drag to rotate around a target, scroll to zoom, right-drag to pan, reset.
#pragma once

#include <glm/glm.hpp>

namespace coalesce {

class OrbitCamera {
 public:
  // `scene_radius` sets the home distance so the whole scene is in view.
  explicit OrbitCamera(float scene_radius = 1.0f);

  void reset();
  void set_scene_radius(float radius);
  void rotate(float dx_pixels, float dy_pixels);
  void pan(float dx_pixels, float dy_pixels, float viewport_height);
  void zoom(float scroll_steps);

  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  glm::vec3 eye() const;

  float distance() const { return m_distance; }
  float yaw() const { return m_yaw; }
  float pitch() const { return m_pitch; }

 private:
  float m_scene_radius;
  float m_yaw = 0.0f;    // radians about the world z axis
  float m_pitch = 0.0f;  // radians above the xy plane
  float m_distance = 1.0f;
  glm::vec3 m_target{0.0f};
  static constexpr float kFieldOfViewY = 0.7854f;  // 45 degrees
};

}  // namespace coalesce
