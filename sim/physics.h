// The physics, written once for every precision: force law, attractor orbits and the symplectic Euler
// step, shared by the CPU backend and the CUDA kernels so that the CPU path is the reference the GPU is
// tested against.
#pragma once

#include <cmath>

#include "sim/common.h"

namespace coalesce {

constexpr int kMaxAttractors = 16;

// A massive point, fixed (orbit_radius == 0) or circling `center` in the xy plane. Scene parameters, kept
// as typed (double); the snapshot rounds them to the state's precision.
struct Attractor {
  Vec3T<double> center;
  double mass;
  double orbit_radius;
  double angular_speed;  // radians per unit time
  double phase;          // radians at t = 0
};

struct AttractorSet {
  Attractor items[kMaxAttractors];
  int count;
};

// 1 / sqrt(x) for x > 0. fp32 on the device is the hardware's MUFU.RSQ (rsqrtf).
HOST_DEVICE inline float reciprocal_sqrt(float x) {
#if defined(__CUDA_ARCH__)
  return rsqrtf(x);
#else
  return 1.0f / std::sqrt(x);
#endif
}

HOST_DEVICE inline double reciprocal_sqrt(double x) { return 1.0 / std::sqrt(x); }

// m / r^3 from r^2 > 0 (r^2 + eps^2: never 0, never subnormal; infinite where |d| overflowed on squaring,
// and then 0, as 1 / sqrt(inf) is): the force law's scale.
HOST_DEVICE inline float mass_over_cube(float m, float r2) {
  const float inv_r = reciprocal_sqrt(r2);
  return m * inv_r * inv_r * inv_r;
}

HOST_DEVICE inline double mass_over_cube(double m, double r2) {
#if defined(__CUDA_ARCH__)
  // fp64 has only a hardware seed (MUFU.RSQ64H, rsqrt.approx.f64: its error is measured by
  // tests/kernels/rsqrt_test.cu). With y the seed and e = 1 - r2 y^2, r^-3 = y^3 (1 - e)^(-3/2)
  // = y^3 (1 + 3e/2 + 15e^2/8 + ...): one series step, truncated after e^2, leaves about (35/16) e^3, far
  // below double rounding for a seed good to 2^-20. Seven fp64 operations after the seed (docs/kernels.md).
  // An r2 that overflowed to infinity becomes a huge finite value through an integer min on its high word
  // (no FP64 instruction: the loop is bound by the FP64 pipe): its seed is then not 0, e is not inf x 0,
  // and m y^3 underflows to 0 as the exact m / r^3 does for every mass in range.
  r2 = __hiloint2double(min(__double2hiint(r2), 0x7FEFFFFF), __double2loint(r2));
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(r2));
  const double y2 = y * y;
  const double e = fma(-r2, y2, 1.0);
  const double m3 = m * (y2 * y);
  return fma(m3 * e, fma(1.875, e, 1.5), m3);
#else
  const double inv_r = reciprocal_sqrt(r2);
  return m * inv_r * inv_r * inv_r;
#endif
}

// Adds the Plummer-softened acceleration on a body at `ri` due to mass `mj` at `rj` (G = 1),
// m_j (r_j - r_i) / (|r_j - r_i|^2 + eps^2)^{3/2}, to `acc`, in the same operation order on host and device
// (the all-pairs inner loop). A body exerts no force on itself (d = 0).
template <class Real>
HOST_DEVICE inline void accumulate_pair(Vec3T<Real>& acc, Vec3T<Real> ri, Vec3T<Real> rj, Real mj,
                                        Real softening_squared) {
  const Real dx = rj.x - ri.x, dy = rj.y - ri.y, dz = rj.z - ri.z;
  // Softening first: on the GPU r^2 is then three chained FMAs (the all-pairs inner loop's budget).
  const Real r2 = softening_squared + dx * dx + dy * dy + dz * dz;
  const Real s = mass_over_cube(mj, r2);
  acc.x += dx * s;
  acc.y += dy * s;
  acc.z += dz * s;
}

// The mutual scheme's pair: the difference, r^2 and r^-3 once (mass_over_cube with m = 1), then
// a_i += m_j r^-3 d and a_j -= m_i r^-3 d, so each unordered pair is evaluated once for both bodies.
template <class Real>
HOST_DEVICE inline void accumulate_mutual_pair(Vec3T<Real>& acc_i, Vec3T<Real>& acc_j, Vec3T<Real> ri, Real mi,
                                               Vec3T<Real> rj, Real mj, Real softening_squared) {
  const Real dx = rj.x - ri.x, dy = rj.y - ri.y, dz = rj.z - ri.z;
  const Real r2 = softening_squared + dx * dx + dy * dy + dz * dz;
  const Real cube = mass_over_cube(Real(1), r2);
  const Real si = mj * cube, sj = mi * cube;
  acc_i.x += dx * si;
  acc_i.y += dy * si;
  acc_i.z += dz * si;
  acc_j.x -= dx * sj;
  acc_j.y -= dy * sj;
  acc_j.z -= dz * sj;
}

HOST_DEVICE inline float cosine(float a) { return std::cos(a); }
HOST_DEVICE inline double cosine(double a) { return std::cos(a); }
HOST_DEVICE inline float sine(float a) { return std::sin(a); }
HOST_DEVICE inline double sine(double a) { return std::sin(a); }

// Where attractor `a` is at `time`, in the state's precision.
template <class Real>
HOST_DEVICE inline Vec3T<Real> attractor_position(const Attractor& a, Real time) {
  const Vec3T<Real> center{static_cast<Real>(a.center.x), static_cast<Real>(a.center.y),
                           static_cast<Real>(a.center.z)};
  if (a.orbit_radius == 0.0) return center;
  const Real angle = Real(a.phase) + Real(a.angular_speed) * time;
  return {center.x + Real(a.orbit_radius) * cosine(angle), center.y + Real(a.orbit_radius) * sine(angle),
          center.z};
}

// Attractor positions at `time`, computed once per step rather than per particle.
template <class Real>
struct AttractorSnapshotT {
  Vec3T<Real> position[kMaxAttractors];
  Real mass[kMaxAttractors];
  int count;
};
using AttractorSnapshot = AttractorSnapshotT<float>;

template <class Real>
inline AttractorSnapshotT<Real> snapshot_attractors(const AttractorSet& set, Real time) {
  AttractorSnapshotT<Real> s{};
  s.count = set.count;
  for (int k = 0; k < set.count; ++k) {
    s.position[k] = attractor_position(set.items[k], time);
    s.mass[k] = static_cast<Real>(set.items[k].mass);
  }
  return s;
}

// The same snapshot in double (exact), for the double-precision diagnostics.
template <class Real>
inline AttractorSnapshotT<double> widened(const AttractorSnapshotT<Real>& s) {
  AttractorSnapshotT<double> out{};
  out.count = s.count;
  for (int k = 0; k < s.count; ++k) {
    out.position[k] = {s.position[k].x, s.position[k].y, s.position[k].z};
    out.mass[k] = s.mass[k];
  }
  return out;
}

template <class Real>
HOST_DEVICE inline Vec3T<Real> attractor_acceleration(const AttractorSnapshotT<Real>& s, Vec3T<Real> r,
                                                      Real softening_squared) {
  Vec3T<Real> acc{Real(0), Real(0), Real(0)};
  for (int k = 0; k < s.count; ++k) accumulate_pair(acc, r, s.position[k], s.mass[k], softening_squared);
  return acc;
}

// Symplectic Euler: kick (v += a dt), then drift (x += v dt) with the new velocity.
template <class Real>
HOST_DEVICE inline Vec3T<Real> kick(Vec3T<Real> v, Vec3T<Real> a, Real dt) {
  return {v.x + a.x * dt, v.y + a.y * dt, v.z + a.z * dt};
}
template <class Real>
HOST_DEVICE inline Vec3T<Real> drift(Vec3T<Real> x, Vec3T<Real> v, Real dt) {
  return {x.x + v.x * dt, x.y + v.y * dt, x.z + v.z * dt};
}

HOST_DEVICE inline float square_root(float x) {
#if defined(__CUDA_ARCH__)
  return sqrtf(x);
#else
  return std::sqrt(x);
#endif
}
HOST_DEVICE inline double square_root(double x) { return std::sqrt(x); }

// |v|, in the state's precision: the pack writes it as a float.
template <class Real>
HOST_DEVICE inline Real speed(Vec3T<Real> v) {
  return square_root(dot(v, v));
}

}  // namespace coalesce
