// An independent all-pairs reference for the tests: the same Plummer-softened force law and symplectic
// Euler step as sim/physics.h, written out here in long double (64-bit mantissa on x86), so the fp64
// backends can be held to their own rounding (about 1e-16) rather than to another float64 code's.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "sim/particle.h"

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
