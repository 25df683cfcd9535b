// Orbit camera (GLM): drag to rotate around a target, scroll to zoom, right-drag to pan, reset.
#pragma once

#include <glm/glm.hpp>

namespace coalesce {

// Where the camera is: yaw about z from +x and pitch above the xy plane in degrees (as --camera and the
// JSON give them, kept in double so a pose written and read back is the same pose), the distance from the
// target it looks at, in scene units.
struct OrbitPose {
  double yaw_degrees = 0.0;
  double pitch_degrees = 0.0;
  float distance = 1.0f;
  glm::vec3 target{0.0f};
};

class OrbitCamera {
 public:
  // `scene_radius` sets the home distance so the whole scene is in view.
  explicit OrbitCamera(float scene_radius = 1.0f);

  void reset();
  void set_scene_radius(float radius);
  void rotate(float dx_pixels, float dy_pixels);
  void pan(float dx_pixels, float dy_pixels, float viewport_height);
  void zoom(float scroll_steps);
  void turn(double degrees) { m_yaw += degrees; }  // --orbit: yaw only, pitch and distance stay

  OrbitPose pose() const { return {m_yaw, m_pitch, m_distance, m_target}; }
  void set_pose(const OrbitPose& pose);  // the pitch clamped as rotate() clamps it
  static constexpr float field_of_view_y() { return kFieldOfViewY; }

  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  glm::vec3 eye() const;

  float distance() const { return m_distance; }
  double yaw() const { return m_yaw; }  // degrees
  double pitch() const { return m_pitch; }

 private:
  float m_scene_radius;
  double m_yaw = 0.0;    // degrees about the world z axis
  double m_pitch = 0.0;  // degrees above the xy plane
  float m_distance = 1.0f;
  glm::vec3 m_target{0.0f};
  static constexpr float kFieldOfViewY = 0.7854f;  // 45 degrees
};

}  // namespace coalesce
