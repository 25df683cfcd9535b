// One view per layout and precision over raw pointers, host and device code alike: the CPU backend and the
// CUDA kernels use these same types. Accessors hide the strides, so each kernel is written once as a
// template over the view. A layout's view is the partial specialisation LayoutView<Layout::X, Real>; every
// member below is required (the generic code in sim/layout_storage.h, sim/cpu_kernels.h and kernels/ calls
// each of them). Byte counts are sizeof of what the view stores, so they cannot drift from the types.
#pragma once

#include <cstddef>

#include "sim/common.h"
#include "sim/layout.h"
#include "sim/particle.h"

namespace coalesce {

template <Layout L, class Real = float>
struct LayoutView;  // no primary definition: a table row without a view is a compile error

// AoS: one natural record per particle (28 bytes in fp32, 56 in fp64); every field access is strided by 7.
template <class Real>
struct LayoutView<Layout::AoS, Real> {
  static constexpr Layout kLayout = Layout::AoS;
  using Scalar = Real;
  using Record = ParticleRecord<Real>;
  static constexpr std::size_t kRecordBytes = sizeof(Record);      // what a conversion reads or writes
  static constexpr std::size_t kVec3Bytes = 3 * sizeof(Real);      // position or velocity alone
  static constexpr std::size_t kPositionMassBytes = 4 * sizeof(Real);  // the force tiles' load
  Record* particles;
  int n;

  // The view of a state buffer `base` holding n particles in this layout (bytes_for(n) bytes).
  HOST_DEVICE static LayoutView over(void* base, int n) { return {static_cast<Record*>(base), n}; }
  static constexpr std::size_t bytes_for(int n) { return kRecordBytes * static_cast<std::size_t>(n); }
  // Particles [first, first + count) as a view of their own: a rank's slice, whose index 0 is `first`.
  HOST_DEVICE LayoutView slice(int first, int count) const { return {particles + first, count}; }

  HOST_DEVICE Vec3T<Real> position(int i) const { return {particles[i].x, particles[i].y, particles[i].z}; }
  HOST_DEVICE Vec3T<Real> velocity(int i) const { return {particles[i].vx, particles[i].vy, particles[i].vz}; }
  HOST_DEVICE Real mass(int i) const { return particles[i].mass; }
  // (x, y, z, m) as one value: the force tiles' load.
  HOST_DEVICE Vec4T<Real> position_mass(int i) const {
    const Record& p = particles[i];
    return {p.x, p.y, p.z, p.mass};
  }
  HOST_DEVICE void set_position(int i, Vec3T<Real> p) const {
    particles[i].x = p.x;
    particles[i].y = p.y;
    particles[i].z = p.z;
  }
  // Position and mass from the force tiles' vector: what a rank receives of the others' bodies.
  HOST_DEVICE void set_position_mass(int i, Vec4T<Real> pm) const {
    particles[i].x = pm.x;
    particles[i].y = pm.y;
    particles[i].z = pm.z;
    particles[i].mass = pm.w;
  }
  HOST_DEVICE void set_velocity(int i, Vec3T<Real> v) const {
    particles[i].vx = v.x;
    particles[i].vy = v.y;
    particles[i].vz = v.z;
  }
  // The whole record, for upload and conversion.
  HOST_DEVICE void store(int i, const Record& p) const { particles[i] = p; }
};

// SoA: one contiguous array per field, seven N-scalar rows x, y, z, vx, vy, vz, m.
template <class Real>
struct LayoutView<Layout::SoA, Real> {
  static constexpr Layout kLayout = Layout::SoA;
  using Scalar = Real;
  using Record = ParticleRecord<Real>;
  static constexpr std::size_t kRecordBytes = kFieldsPerParticle * sizeof(Real);
  static constexpr std::size_t kVec3Bytes = 3 * sizeof(Real);
  static constexpr std::size_t kPositionMassBytes = 4 * sizeof(Real);
  Real *x, *y, *z, *vx, *vy, *vz, *m;
  int n;

  HOST_DEVICE static LayoutView over(void* base, int n) {
    Real* f = static_cast<Real*>(base);
    const std::size_t count = static_cast<std::size_t>(n);
    return {f, f + count, f + 2 * count, f + 3 * count, f + 4 * count, f + 5 * count, f + 6 * count, n};
  }
  static constexpr std::size_t bytes_for(int n) { return kRecordBytes * static_cast<std::size_t>(n); }
  HOST_DEVICE LayoutView slice(int first, int count) const {
    return {x + first, y + first, z + first, vx + first, vy + first, vz + first, m + first, count};
  }

  HOST_DEVICE Vec3T<Real> position(int i) const { return {x[i], y[i], z[i]}; }
  HOST_DEVICE Vec3T<Real> velocity(int i) const { return {vx[i], vy[i], vz[i]}; }
  HOST_DEVICE Real mass(int i) const { return m[i]; }
  HOST_DEVICE Vec4T<Real> position_mass(int i) const { return {x[i], y[i], z[i], m[i]}; }
  HOST_DEVICE void set_position(int i, Vec3T<Real> p) const {
    x[i] = p.x;
    y[i] = p.y;
    z[i] = p.z;
  }
  HOST_DEVICE void set_position_mass(int i, Vec4T<Real> pm) const {
    x[i] = pm.x;
    y[i] = pm.y;
    z[i] = pm.z;
    m[i] = pm.w;
  }
  HOST_DEVICE void set_velocity(int i, Vec3T<Real> v) const {
    vx[i] = v.x;
    vy[i] = v.y;
    vz[i] = v.z;
  }
  HOST_DEVICE void store(int i, const Record& p) const {
    x[i] = p.x;
    y[i] = p.y;
    z[i] = p.z;
    vx[i] = p.vx;
    vy[i] = p.vy;
    vz[i] = p.vz;
    m[i] = p.mass;
  }
};

// The vector layout ("float4"): N (x, y, z, mass) then N (vx, vy, vz, unused) as Vec4T<Real>, float4 in
// fp32 and double4_32a in fp64; whole-vector loads and stores, w preserved.
template <class Real>
struct LayoutView<Layout::Float4, Real> {
  static constexpr Layout kLayout = Layout::Float4;
  using Scalar = Real;
  using Record = ParticleRecord<Real>;
  using Vector = Vec4T<Real>;
  static constexpr std::size_t kRecordBytes = 2 * sizeof(Vector);
  static constexpr std::size_t kVec3Bytes = sizeof(Vector);  // whole vectors move, the unused vel.w too
  static constexpr std::size_t kPositionMassBytes = sizeof(Vector);
  Vector* pos_mass;
  Vector* vel;
  int n;

  HOST_DEVICE static LayoutView over(void* base, int n) {
    Vector* f = static_cast<Vector*>(base);
    return {f, f + n, n};
  }
  static constexpr std::size_t bytes_for(int n) { return kRecordBytes * static_cast<std::size_t>(n); }
  HOST_DEVICE LayoutView slice(int first, int count) const { return {pos_mass + first, vel + first, count}; }

  HOST_DEVICE Vec3T<Real> position(int i) const {
    const Vector p = load_vec4(pos_mass + i);
    return {p.x, p.y, p.z};
  }
  HOST_DEVICE Vec3T<Real> velocity(int i) const {
    const Vector v = load_vec4(vel + i);
    return {v.x, v.y, v.z};
  }
  HOST_DEVICE Real mass(int i) const { return pos_mass[i].w; }
  HOST_DEVICE Vector position_mass(int i) const { return load_vec4(pos_mass + i); }
  HOST_DEVICE void set_position(int i, Vec3T<Real> p) const {
    store_vec4(pos_mass + i, Vector{p.x, p.y, p.z, pos_mass[i].w});
  }
  HOST_DEVICE void set_position_mass(int i, Vector pm) const { store_vec4(pos_mass + i, pm); }
  HOST_DEVICE void set_velocity(int i, Vec3T<Real> v) const {
    store_vec4(vel + i, Vector{v.x, v.y, v.z, vel[i].w});
  }
  // Whole vector stores: nothing of the destination is read, and the spare vel.w is defined (0).
  HOST_DEVICE void store(int i, const Record& p) const {
    store_vec4(pos_mass + i, Vector{p.x, p.y, p.z, p.mass});
    store_vec4(vel + i, Vector{p.vx, p.vy, p.vz, Real(0)});
  }
};

using AosView = LayoutView<Layout::AoS>;
using SoaView = LayoutView<Layout::SoA>;
using Float4View = LayoutView<Layout::Float4>;

// The whole record of particle i, in any layout: position + mass as one load, then the velocity.
template <class View>
HOST_DEVICE typename View::Record load_particle(const View& view, int i) {
  const auto pm = view.position_mass(i);
  const auto v = view.velocity(i);
  return {pm.x, pm.y, pm.z, v.x, v.y, v.z, pm.w};
}

}  // namespace coalesce
