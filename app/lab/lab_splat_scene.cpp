// The splat experiment's particles and view, made on the host from the run's seed.
#include "app/lab/lab_splat_scene.h"

#include <algorithm>
#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>

#include "render/orbit_camera.h"
#include "render/sprite_scale.h"

namespace coalesce::lab {
namespace {

constexpr int kWidth = 1130;  // 1600 minus the panel
constexpr int kHeight = 900;
// About the disk's 90th-percentile radius, which the viewer's frame_camera() frames the scene with.
constexpr float kSceneRadius = 1.15f;

// A float in [0, 1) with 24 bits from (seed, index), as every lab input is a hash of the two: a few
// nanoseconds each, where a sequential generator took seconds for 16.8M particles.
float unit_value(std::uint32_t seed, std::uint64_t i) {
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return static_cast<float>(static_cast<std::uint32_t>(x) >> 8) * (1.0f / (1 << 24));
}

}  // namespace

int splat_particles(int side) {
  return static_cast<int>(static_cast<std::int64_t>(side) * side / 4);
}

std::vector<Float4> splat_disk(int particles, std::uint32_t seed) {
  std::vector<Float4> disk(static_cast<std::size_t>(particles));
  for (std::size_t i = 0; i < disk.size(); ++i) {
    // Radii exponential with mean 0.5 (density falling as exp(-2r) / r); w is a speed, faster inside.
    const float r = -0.5f * std::log(1.0f - 0.999f * unit_value(seed, 4 * i));
    const float a = 6.2831853f * unit_value(seed, 4 * i + 1);
    disk[i] = {r * std::cos(a), r * std::sin(a), 0.06f * unit_value(seed, 4 * i + 2) - 0.03f,
               1.0f / std::sqrt(r + 0.05f)};
  }
  return disk;
}

std::vector<Float4> splat_cube(int particles, std::uint32_t seed) {
  std::vector<Float4> cube(static_cast<std::size_t>(particles));
  for (std::size_t i = 0; i < cube.size(); ++i)
    cube[i] = {2.0f * unit_value(seed, 4 * i) - 1.0f, 2.0f * unit_value(seed, 4 * i + 1) - 1.0f,
               2.0f * unit_value(seed, 4 * i + 2) - 1.0f, 2.0f * unit_value(seed, 4 * i + 3)};
  return cube;
}

SplatParams splat_view(int particles) {
  const OrbitCamera camera(kSceneRadius);
  SplatParams p;
  p.width = kWidth;
  p.height = kHeight;
  const glm::mat4 view = camera.view();
  const glm::mat4 projection = camera.projection(static_cast<float>(kWidth) / kHeight);
  std::copy(glm::value_ptr(view), glm::value_ptr(view) + 16, p.view);
  std::copy(glm::value_ptr(projection), glm::value_ptr(projection) + 16, p.projection);
  p.particles = particles;
  const SpriteScale scale = sprite_scale(particles);
  p.point_size = 0.012f * kSceneRadius * scale.size;  // as app/viewer's update_sprite_style()
  p.max_pixels = std::max(8.0f, kMaxSpritePixels * scale.size);
  p.speed_scale = 0.5f;
  p.intensity = 0.01f;  // the light's amount changes no cost: atomics add whatever value they are given
  return p;
}

}  // namespace coalesce::lab
