// Orbit camera maths: spherical coordinates around a target, z up (the scenes' disks lie in xy).
#include "render/orbit_camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "sim/limits.h"

namespace coalesce {
namespace {
constexpr double kDegreesPerPixel = 0.2865;  // 0.005 rad
constexpr double kMaxPitch = kCameraPitchRange.hi;  // sim/limits.h
constexpr double kRadiansPerDegree = 3.14159265358979323846 / 180.0;
}  // namespace

OrbitCamera::OrbitCamera(float scene_radius) : m_scene_radius(scene_radius) {
  reset();
}

void OrbitCamera::reset() {
  // A three-quarter view of the disk plane shows both structure and depth.
  m_yaw = 35.0;
  m_pitch = 43.0;
  m_distance = 3.2f * m_scene_radius;
  m_target = glm::vec3(0.0f);
}

void OrbitCamera::set_scene_radius(float radius) {
  m_scene_radius = std::max(radius, 1e-3f);
  reset();
}

void OrbitCamera::set_pose(const OrbitPose& pose) {
  m_yaw = pose.yaw_degrees;
  m_pitch = std::clamp(pose.pitch_degrees, -kMaxPitch, kMaxPitch);
  m_distance = std::clamp(pose.distance, kCameraDistanceRange.lo, kCameraDistanceRange.hi);
  m_target = pose.target;
}

void OrbitCamera::rotate(float dx_pixels, float dy_pixels) {
  m_yaw -= dx_pixels * kDegreesPerPixel;
  m_pitch = std::clamp(m_pitch + dy_pixels * kDegreesPerPixel, -kMaxPitch, kMaxPitch);
}

void OrbitCamera::pan(float dx_pixels, float dy_pixels, float viewport_height) {
  // Move the target in the view plane so the point under the cursor follows it.
  const float world_per_pixel =
      2.0f * m_distance * std::tan(kFieldOfViewY * 0.5f) / std::max(viewport_height, 1.0f);
  const glm::mat4 v = view();
  const glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  const glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  m_target += (-dx_pixels * right + dy_pixels * up) * world_per_pixel;
}

void OrbitCamera::zoom(float scroll_steps) {
  m_distance =
      std::clamp(m_distance * std::pow(0.88f, scroll_steps), std::max(0.01f * m_scene_radius, kCameraDistanceRange.lo),
                 std::min(100.0f * m_scene_radius, kCameraDistanceRange.hi));
}

glm::vec3 OrbitCamera::eye() const {
  const double yaw = m_yaw * kRadiansPerDegree, pitch = m_pitch * kRadiansPerDegree;
  const double c = std::cos(pitch);
  return m_target + m_distance * glm::vec3(static_cast<float>(c * std::cos(yaw)), static_cast<float>(c * std::sin(yaw)),
                                           static_cast<float>(std::sin(pitch)));
}

glm::mat4 OrbitCamera::view() const {
  return glm::lookAt(eye(), m_target, glm::vec3(0.0f, 0.0f, 1.0f));
}

glm::mat4 OrbitCamera::projection(float aspect) const {
  const float near_plane = std::max(m_distance * 0.01f, 1e-4f);
  return glm::perspective(kFieldOfViewY, std::max(aspect, 1e-3f), near_plane,
                          m_distance + 200.0f * m_scene_radius);
}

}  // namespace coalesce
