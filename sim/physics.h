// The physics, written once: force law, attractor orbits and the symplectic Euler step, shared by the
// CPU backend and the CUDA kernels so that the CPU path is the reference the GPU is tested against.
#pragma once

#include <cmath>

#include "sim/common.h"

namespace coalesce {

constexpr int kMaxAttractors = 16;

// A massive point, fixed (orbit_radius == 0) or circling `center` in the xy plane.
struct Attractor {
  Vec3 center;
  float mass;
  float orbit_radius;
  float angular_speed;  // radians per unit time
  float phase;          // radians at t = 0
};

struct AttractorSet {
  Attractor items[kMaxAttractors];
  int count;
};

HOST_DEVICE inline float reciprocal_sqrt(float x) {
#if defined(__CUDA_ARCH__)
  return rsqrtf(x);
#else
  return 1.0f / std::sqrt(x);
#endif
}

// Adds the Plummer-softened acceleration on a body at `ri` due to mass `mj` at `rj` (G = 1),
// m_j (r_j - r_i) / (|r_j - r_i|^2 + eps^2)^{3/2}, to `acc`, in the same operation order on host and device
// (the all-pairs inner loop). A body exerts no force on itself (d = 0).
HOST_DEVICE inline void accumulate_pair(Vec3& acc, Vec3 ri, Vec3 rj, float mj, float softening_squared) {
  const float dx = rj.x - ri.x, dy = rj.y - ri.y, dz = rj.z - ri.z;
  // Softening first: on the GPU r^2 is then three chained FMAs (the all-pairs inner loop's FP32 budget).
  const float r2 = softening_squared + dx * dx + dy * dy + dz * dz;
  const float inv_r = reciprocal_sqrt(r2);
  const float s = mj * inv_r * inv_r * inv_r;
  acc.x += dx * s;
  acc.y += dy * s;
  acc.z += dz * s;
}

HOST_DEVICE inline Vec3 attractor_position(const Attractor& a, float time) {
  if (a.orbit_radius == 0.0f) return a.center;
  const float angle = a.phase + a.angular_speed * time;
  return {a.center.x + a.orbit_radius * std::cos(angle), a.center.y + a.orbit_radius * std::sin(angle),
          a.center.z};
}

// Attractor positions at `time`, computed once per step rather than per particle.
struct AttractorSnapshot {
  Vec3 position[kMaxAttractors];
  float mass[kMaxAttractors];
  int count;
};

inline AttractorSnapshot snapshot_attractors(const AttractorSet& set, float time) {
  AttractorSnapshot s{};
  s.count = set.count;
  for (int k = 0; k < set.count; ++k) {
    s.position[k] = attractor_position(set.items[k], time);
    s.mass[k] = set.items[k].mass;
  }
  return s;
}

HOST_DEVICE inline Vec3 attractor_acceleration(const AttractorSnapshot& s, Vec3 r, float softening_squared) {
  Vec3 acc{0.0f, 0.0f, 0.0f};
  for (int k = 0; k < s.count; ++k) accumulate_pair(acc, r, s.position[k], s.mass[k], softening_squared);
  return acc;
}

// Symplectic Euler: kick (v += a dt), then drift (x += v dt) with the new velocity.
HOST_DEVICE inline Vec3 kick(Vec3 v, Vec3 a, float dt) { return {v.x + a.x * dt, v.y + a.y * dt, v.z + a.z * dt}; }
HOST_DEVICE inline Vec3 drift(Vec3 x, Vec3 v, float dt) { return {x.x + v.x * dt, x.y + v.y * dt, x.z + v.z * dt}; }

HOST_DEVICE inline float speed(Vec3 v) {
#if defined(__CUDA_ARCH__)
  return sqrtf(dot(v, v));
#else
  return std::sqrt(dot(v, v));
#endif
}

}  // namespace coalesce
