// compute_diagnostics: kinetic and potential energy, momentum and angular momentum, in double precision.
#include "sim/diagnostics.h"

#include <cmath>

#include "sim/force_method.h"
#include "sim/thread_pool.h"
#include "sim/usable_cpus.h"

namespace coalesce {

namespace {

// Rows i in [begin, end) of the upper triangle; partial sums per row keep the result thread-count
// independent.
template <class Record>
void pair_potential_rows(const std::vector<Record>& ps, double eps2, int begin, int end,
                         std::vector<double>& row) {
  const int n = static_cast<int>(ps.size());
  for (int i = begin; i < end; ++i) {
    const Record& a = ps[static_cast<std::size_t>(i)];
    double sum = 0;
    for (int j = i + 1; j < n; ++j) {
      const Record& b = ps[static_cast<std::size_t>(j)];
      const double dx = static_cast<double>(b.x) - a.x, dy = static_cast<double>(b.y) - a.y,
                   dz = static_cast<double>(b.z) - a.z;
      sum += static_cast<double>(b.mass) / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
    }
    row[static_cast<std::size_t>(i)] = -static_cast<double>(a.mass) * sum;
  }
}

// Attractors where the step puts them (snapshot_attractors: Real positions at Real time), so the energy
// is that of the system simulated, and the CUDA backend's diagnostics match it term for term.
template <class Real>
double attractor_potential(const std::vector<ParticleRecord<Real>>& ps, const SimParams& params, double time,
                           double eps2) {
  const auto snapshot = snapshot_attractors(params.attractors, static_cast<Real>(time));
  double total = 0;
  for (int k = 0; k < snapshot.count; ++k) {
    const double cx = snapshot.position[k].x, cy = snapshot.position[k].y, cz = snapshot.position[k].z;
    const double mass = snapshot.mass[k];
    for (const auto& p : ps) {
      const double dx = p.x - cx, dy = p.y - cy, dz = p.z - cz;
      total -= static_cast<double>(p.mass) * mass / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
    }
  }
  return total;
}

template <class Real>
Diagnostics motion_of(const std::vector<ParticleRecord<Real>>& particles) {
  Diagnostics d;
  for (const auto& p : particles) {
    const double m = p.mass, x = p.x, y = p.y, z = p.z, vx = p.vx, vy = p.vy, vz = p.vz;
    d.kinetic_energy += 0.5 * m * (vx * vx + vy * vy + vz * vz);
    d.momentum.x += m * vx;
    d.momentum.y += m * vy;
    d.momentum.z += m * vz;
    // Rounded as kernels/diagnostics.cu rounds it (each product, then the difference, then times m).
    d.angular_momentum.x += m * (y * vz - z * vy);
    d.angular_momentum.y += m * (z * vx - x * vz);
    d.angular_momentum.z += m * (x * vy - y * vx);
  }
  d.total_energy = d.kinetic_energy;
  return d;
}

template <class Real>
Diagnostics diagnostics_of(const std::vector<ParticleRecord<Real>>& particles, Physics physics,
                           const SimParams& params, double time) {
  Diagnostics d = motion_of(particles);
  const double eps2 = params.softening * params.softening;  // the softening as typed, in double
  if (physics == Physics::PairGravity) {
    const int n = static_cast<int>(particles.size());
    std::vector<double> row(particles.size(), 0.0);
    ThreadPool pool(usable_cpus().count);
    // Row i costs n - i: index k handles rows k and n-1-k, so contiguous chunks get equal work.
    pool.parallel_for((n + 1) / 2, [&](int begin, int end) {
      for (int k = begin; k < end; ++k) {
        pair_potential_rows(particles, eps2, k, k + 1, row);
        if (n - 1 - k != k) pair_potential_rows(particles, eps2, n - 1 - k, n - k, row);
      }
    });
    for (double r : row) d.potential_energy += r;
  } else {
    d.potential_energy = attractor_potential(particles, params, time, eps2);
  }
  d.total_energy = d.kinetic_energy + d.potential_energy;
  return d;
}

}  // namespace

std::optional<double> virial_ratio(const Diagnostics& d) {
  if (d.potential_energy == 0.0) return std::nullopt;
  return 2.0 * d.kinetic_energy / std::abs(d.potential_energy);
}

Diagnostics motion_diagnostics(const std::vector<Particle>& particles) {
  return motion_of(particles);
}
Diagnostics motion_diagnostics(const std::vector<ParticleF64>& particles) {
  return motion_of(particles);
}

Diagnostics compute_diagnostics(const std::vector<Particle>& particles, Physics physics,
                                const SimParams& params, double time) {
  return diagnostics_of(particles, physics, params, time);
}
Diagnostics compute_diagnostics(const std::vector<ParticleF64>& particles, Physics physics,
                                const SimParams& params, double time) {
  return diagnostics_of(particles, physics, params, time);
}

}  // namespace coalesce
