// An independent all-pairs reference for the tests: the same Plummer-softened force law and symplectic
// Euler step as sim/physics.h, written out here in long double (64-bit mantissa on x86), so the fp64
// backends can be held to their own rounding (about 1e-16) rather than to another float64 code's.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "sim/force_method.h"
#include "sim/particle.h"
#include "sim/physics.h"
#include "sim/sim_params.h"

namespace coalesce::testing {

struct ReferenceBody {
  long double x, y, z, vx, vy, vz, m;
};

template <class Real>
std::vector<ReferenceBody> reference_bodies(const std::vector<ParticleRecord<Real>>& state) {
  std::vector<ReferenceBody> out;
  out.reserve(state.size());
  for (const auto& p : state) out.push_back({p.x, p.y, p.z, p.vx, p.vy, p.vz, p.mass});
  return out;
}

// One step: v_i += dt sum_j m_j d_ij / (|d_ij|^2 + eps^2)^(3/2), then x_i += v_i dt.
inline void reference_step(std::vector<ReferenceBody>& bodies, long double eps2, long double dt) {
  const std::size_t n = bodies.size();
  std::vector<ReferenceBody> before = bodies;
  for (std::size_t i = 0; i < n; ++i) {
    long double ax = 0, ay = 0, az = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const long double dx = before[j].x - before[i].x, dy = before[j].y - before[i].y,
                        dz = before[j].z - before[i].z;
      const long double r2 = dx * dx + dy * dy + dz * dz + eps2;
      const long double s = before[j].m / (r2 * std::sqrt(r2));
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    bodies[i].vx += ax * dt;
    bodies[i].vy += ay * dt;
    bodies[i].vz += az * dt;
  }
  for (ReferenceBody& b : bodies) {
    b.x += b.vx * dt;
    b.y += b.vy * dt;
    b.z += b.vz * dt;
  }
}

// One attractor step: attractor k at center + orbit_radius (cos, sin)(phase + angular_speed t) at `time`,
// from its parameters as given (double), then v_i += dt sum_k m_k d_ik / (|d_ik|^2 + eps^2)^(3/2) and
// x_i += v_i dt.
inline void reference_attractor_step(std::vector<ReferenceBody>& bodies, const AttractorSet& set,
                                     long double time, long double eps2, long double dt) {
  long double place[kMaxAttractors][3];
  for (int k = 0; k < set.count; ++k) {
    const Attractor& a = set.items[k];
    const long double angle =
        static_cast<long double>(a.phase) + static_cast<long double>(a.angular_speed) * time;
    const long double radius = a.orbit_radius;
    place[k][0] = a.center.x + radius * std::cos(angle);
    place[k][1] = a.center.y + radius * std::sin(angle);
    place[k][2] = a.center.z;
  }
  for (ReferenceBody& b : bodies) {
    long double acc[3] = {0, 0, 0};
    for (int k = 0; k < set.count; ++k) {
      const long double d[3] = {place[k][0] - b.x, place[k][1] - b.y, place[k][2] - b.z};
      const long double r2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + eps2;
      const long double s = set.items[k].mass / (r2 * std::sqrt(r2));
      for (int c = 0; c < 3; ++c) acc[c] += d[c] * s;
    }
    b.vx += acc[0] * dt;
    b.vy += acc[1] * dt;
    b.vz += acc[2] * dt;
    b.x += b.vx * dt;
    b.y += b.vy * dt;
    b.z += b.vz * dt;
  }
}

// `steps` steps of `params` under `method`'s physics (pair gravity or attractors, with its values as given)
// from `start`, the clock at step x dt.
template <class Real>
std::vector<ReferenceBody> reference_run(const std::vector<ParticleRecord<Real>>& start, ForceMethod method,
                                         const SimParams& params, int steps) {
  std::vector<ReferenceBody> bodies = reference_bodies(start);
  const long double eps = params.softening, dt = params.dt;
  for (int s = 0; s < steps; ++s) {
    if (method_info(method).physics == Physics::PairGravity)
      reference_step(bodies, eps * eps, dt);
    else
      reference_attractor_step(bodies, params.attractors, s * dt, eps * eps, dt);
  }
  return bodies;
}

// The parameters as a float would hold them: what fp64 runs stepped with before they were kept as typed.
inline SimParams float_parameters(SimParams params) {
  const auto narrow = [](double& v) { v = static_cast<float>(v); };
  narrow(params.dt);
  narrow(params.softening);
  for (int k = 0; k < params.attractors.count; ++k) {
    Attractor& a = params.attractors.items[k];
    for (double* v :
         {&a.center.x, &a.center.y, &a.center.z, &a.mass, &a.orbit_radius, &a.angular_speed, &a.phase})
      narrow(*v);
  }
  return params;
}

// The reference's state rounded to double records (to compare two references).
inline std::vector<ParticleF64> reference_records(const std::vector<ReferenceBody>& bodies) {
  std::vector<ParticleF64> out;
  out.reserve(bodies.size());
  for (const ReferenceBody& b : bodies)
    out.push_back({static_cast<double>(b.x), static_cast<double>(b.y), static_cast<double>(b.z),
                   static_cast<double>(b.vx), static_cast<double>(b.vy), static_cast<double>(b.vz),
                   static_cast<double>(b.m)});
  return out;
}

// ||a - ref|| / ||ref|| over all seven fields (long double).
template <class Real>
double relative_error_to(const std::vector<ParticleRecord<Real>>& a, const std::vector<ReferenceBody>& ref) {
  if (a.size() != ref.size()) return INFINITY;
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Real* pa = &a[i].x;
    const long double* pr = &ref[i].x;
    for (int f = 0; f < kFieldsPerParticle; ++f) {
      const long double d = static_cast<long double>(pa[f]) - pr[f];
      diff += d * d;
      norm += pr[f] * pr[f];
    }
  }
  if (std::isnan(static_cast<double>(diff))) return INFINITY;
  return static_cast<double>(std::sqrt(diff / norm));
}

// The velocity change of one step against the reference's: isolates the kick from the large positions.
template <class Real>
double kick_error_to(const std::vector<ParticleRecord<Real>>& after, const std::vector<ParticleRecord<Real>>& before,
                     const std::vector<ReferenceBody>& ref_after) {
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < after.size(); ++i) {
    const long double got[3] = {static_cast<long double>(after[i].vx) - before[i].vx,
                                static_cast<long double>(after[i].vy) - before[i].vy,
                                static_cast<long double>(after[i].vz) - before[i].vz};
    const long double want[3] = {ref_after[i].vx - before[i].vx, ref_after[i].vy - before[i].vy,
                                 ref_after[i].vz - before[i].vz};
    for (int k = 0; k < 3; ++k) {
      diff += (got[k] - want[k]) * (got[k] - want[k]);
      norm += want[k] * want[k];
    }
  }
  // One body: its only pull is its own, exactly 0, so the error is absolute.
  return static_cast<double>(norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff));
}

}  // namespace coalesce::testing
