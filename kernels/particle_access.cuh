// Device-side whole-record access per view: (x, y, z, m) as one float4 for the force tiles, and full records
// for conversion. Float4 overloads keep 16-byte loads and stores.
#pragma once

#include "sim/layout_views.h"

namespace coalesce::gpu {

__device__ inline Float4 load_position_mass(const AosView& v, int i) {
  const Particle& p = v.particles[i];
  return {p.x, p.y, p.z, p.mass};
}
__device__ inline Float4 load_position_mass(const SoaView& v, int i) {
  return {v.x[i], v.y[i], v.z[i], v.m[i]};
}
__device__ inline Float4 load_position_mass(const Float4View& v, int i) {
  return v.pos_mass[i];
}

template <class View>
__device__ Particle load_particle(const View& v, int i) {
  const Float4 pm = load_position_mass(v, i);
  const Vec3 vel = v.velocity(i);
  return {pm.x, pm.y, pm.z, vel.x, vel.y, vel.z, pm.w};
}

__device__ inline void store_particle(const AosView& v, int i, const Particle& p) {
  v.particles[i] = p;
}
__device__ inline void store_particle(const SoaView& v, int i, const Particle& p) {
  v.x[i] = p.x;
  v.y[i] = p.y;
  v.z[i] = p.z;
  v.vx[i] = p.vx;
  v.vy[i] = p.vy;
  v.vz[i] = p.vz;
  v.m[i] = p.mass;
}
// Whole float4 stores: nothing of the destination is read, and the spare vel.w is defined (0, as on the CPU).
__device__ inline void store_particle(const Float4View& v, int i, const Particle& p) {
  v.pos_mass[i] = {p.x, p.y, p.z, p.mass};
  v.vel[i] = {p.vx, p.vy, p.vz, 0.0f};
}

// Global index of this thread in a 1-D grid, in 64 bits so the last block of a huge N cannot overflow.
__device__ inline long long global_thread_index() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

}  // namespace coalesce::gpu
