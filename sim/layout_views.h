// One view per layout over raw pointers, host and device code alike: the CPU backend and the CUDA kernels
// use these same types. Accessors hide the strides, so each kernel is written once as a template over the
// view. A layout's view is the specialisation LayoutView<Layout::X>; every member below is required (the
// generic code in sim/layout_storage.h, sim/cpu_kernels.h and kernels/ calls each of them).
#pragma once

#include <cstddef>

#include "sim/common.h"
#include "sim/layout.h"
#include "sim/particle.h"

namespace coalesce {

template <Layout L>
struct LayoutView;  // no primary definition: a table row without a view is a compile error

// AoS: one 28-byte record per particle; every field access is strided by 7 floats.
template <>
struct LayoutView<Layout::AoS> {
  static constexpr Layout kLayout = Layout::AoS;
  Particle* particles;
  int n;

  // The view of a state buffer `base` holding n particles in this layout (bytes_for(n) bytes).
  HOST_DEVICE static LayoutView over(void* base, int n) { return {static_cast<Particle*>(base), n}; }
  static constexpr std::size_t bytes_for(int n) { return sizeof(Particle) * static_cast<std::size_t>(n); }

  HOST_DEVICE Vec3 position(int i) const { return {particles[i].x, particles[i].y, particles[i].z}; }
  HOST_DEVICE Vec3 velocity(int i) const { return {particles[i].vx, particles[i].vy, particles[i].vz}; }
  HOST_DEVICE float mass(int i) const { return particles[i].mass; }
  // (x, y, z, m) as one value: the force tiles' load.
  HOST_DEVICE Float4 position_mass(int i) const {
    const Particle& p = particles[i];
    return {p.x, p.y, p.z, p.mass};
  }
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
  // The whole record, for upload and conversion.
  HOST_DEVICE void store(int i, const Particle& p) const { particles[i] = p; }
};

// SoA: one contiguous array per field, seven N-float rows x, y, z, vx, vy, vz, m.
template <>
struct LayoutView<Layout::SoA> {
  static constexpr Layout kLayout = Layout::SoA;
  float *x, *y, *z, *vx, *vy, *vz, *m;
  int n;

  HOST_DEVICE static LayoutView over(void* base, int n) {
    float* f = static_cast<float*>(base);
    const std::size_t count = static_cast<std::size_t>(n);
    return {f, f + count, f + 2 * count, f + 3 * count, f + 4 * count, f + 5 * count, f + 6 * count, n};
  }
  static constexpr std::size_t bytes_for(int n) {
    return kFieldsPerParticle * sizeof(float) * static_cast<std::size_t>(n);
  }

  HOST_DEVICE Vec3 position(int i) const { return {x[i], y[i], z[i]}; }
  HOST_DEVICE Vec3 velocity(int i) const { return {vx[i], vy[i], vz[i]}; }
  HOST_DEVICE float mass(int i) const { return m[i]; }
  HOST_DEVICE Float4 position_mass(int i) const { return {x[i], y[i], z[i], m[i]}; }
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
  HOST_DEVICE void store(int i, const Particle& p) const {
    x[i] = p.x;
    y[i] = p.y;
    z[i] = p.z;
    vx[i] = p.vx;
    vy[i] = p.vy;
    vz[i] = p.vz;
    m[i] = p.mass;
  }
};

// float4: N (x, y, z, mass) then N (vx, vy, vz, unused); whole 16-byte loads and stores, w preserved.
template <>
struct LayoutView<Layout::Float4> {
  static constexpr Layout kLayout = Layout::Float4;
  Float4* pos_mass;
  Float4* vel;
  int n;

  HOST_DEVICE static LayoutView over(void* base, int n) {
    Float4* f = static_cast<Float4*>(base);
    return {f, f + n, n};
  }
  static constexpr std::size_t bytes_for(int n) { return 2 * sizeof(Float4) * static_cast<std::size_t>(n); }

  HOST_DEVICE Vec3 position(int i) const {
    const Float4 p = pos_mass[i];
    return {p.x, p.y, p.z};
  }
  HOST_DEVICE Vec3 velocity(int i) const {
    const Float4 v = vel[i];
    return {v.x, v.y, v.z};
  }
  HOST_DEVICE float mass(int i) const { return pos_mass[i].w; }
  HOST_DEVICE Float4 position_mass(int i) const { return pos_mass[i]; }
  HOST_DEVICE void set_position(int i, Vec3 p) const { pos_mass[i] = {p.x, p.y, p.z, pos_mass[i].w}; }
  HOST_DEVICE void set_velocity(int i, Vec3 v) const { vel[i] = {v.x, v.y, v.z, vel[i].w}; }
  // Whole float4 stores: nothing of the destination is read, and the spare vel.w is defined (0).
  HOST_DEVICE void store(int i, const Particle& p) const {
    pos_mass[i] = {p.x, p.y, p.z, p.mass};
    vel[i] = {p.vx, p.vy, p.vz, 0.0f};
  }
};

using AosView = LayoutView<Layout::AoS>;
using SoaView = LayoutView<Layout::SoA>;
using Float4View = LayoutView<Layout::Float4>;

// The whole record of particle i, in any layout: position + mass as one load, then the velocity.
template <class View>
HOST_DEVICE Particle load_particle(const View& view, int i) {
  const Float4 pm = view.position_mass(i);
  const Vec3 v = view.velocity(i);
  return {pm.x, pm.y, pm.z, v.x, v.y, v.z, pm.w};
}

}  // namespace coalesce
