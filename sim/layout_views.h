// One small view per layout over raw pointers (host or device). Accessors hide the strides, so each
// kernel is written once as a template over the view; adding a layout is one view here.
#pragma once

#include "sim/common.h"
#include "sim/particle.h"

namespace coalesce {

// AoS: one 28-byte record per particle; every field access is strided by 7 floats.
struct AosView {
  Particle* particles;
  int n;

  HOST_DEVICE Vec3 position(int i) const { return {particles[i].x, particles[i].y, particles[i].z}; }
  HOST_DEVICE Vec3 velocity(int i) const { return {particles[i].vx, particles[i].vy, particles[i].vz}; }
  HOST_DEVICE float mass(int i) const { return particles[i].mass; }
  HOST_DEVICE void set_position(int i, Vec3 p) const {
    particles[i].x = p.x;
    particles[i].y = p.y;
    particles[i].z = p.z;
  }
  HOST_DEVICE void set_velocity(int i, Vec3 v) const {
    particles[i].vx = v.x;
    particles[i].vy = v.y;
    particles[i].vz = v.z;
  }
};

// SoA: one contiguous array per field.
struct SoaView {
  float *x, *y, *z, *vx, *vy, *vz, *m;
  int n;

  HOST_DEVICE Vec3 position(int i) const { return {x[i], y[i], z[i]}; }
  HOST_DEVICE Vec3 velocity(int i) const { return {vx[i], vy[i], vz[i]}; }
  HOST_DEVICE float mass(int i) const { return m[i]; }
  HOST_DEVICE void set_position(int i, Vec3 p) const {
    x[i] = p.x;
    y[i] = p.y;
    z[i] = p.z;
  }
  HOST_DEVICE void set_velocity(int i, Vec3 v) const {
    vx[i] = v.x;
    vy[i] = v.y;
    vz[i] = v.z;
  }
};

// float4: (x, y, z, mass) and (vx, vy, vz, unused); whole 16-byte loads and stores, w preserved.
struct Float4View {
  Float4* pos_mass;
  Float4* vel;
  int n;

  HOST_DEVICE Vec3 position(int i) const {
    const Float4 p = pos_mass[i];
    return {p.x, p.y, p.z};
  }
  HOST_DEVICE Vec3 velocity(int i) const {
    const Float4 v = vel[i];
    return {v.x, v.y, v.z};
  }
  HOST_DEVICE float mass(int i) const { return pos_mass[i].w; }
  HOST_DEVICE void set_position(int i, Vec3 p) const { pos_mass[i] = {p.x, p.y, p.z, pos_mass[i].w}; }
  HOST_DEVICE void set_velocity(int i, Vec3 v) const { vel[i] = {v.x, v.y, v.z, vel[i].w}; }
};

}  // namespace coalesce
