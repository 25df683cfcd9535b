// Energy, momentum and angular momentum of a state, in double precision, for tests and the panel readout.
#pragma once

#include <optional>
#include <vector>

#include "sim/force_method.h"
#include "sim/particle.h"
#include "sim/sim_params.h"

namespace coalesce {

struct Vec3d {
  double x, y, z;
};

struct Diagnostics {
  double kinetic_energy = 0;    // sum 1/2 m v^2
  double potential_energy = 0;  // all-pairs: sum over i<j of -m_i m_j / sqrt(r^2 + eps^2);
                                // attractors: sum over i, k of -m_i M_k / sqrt(|r_i - a_k(time)|^2 + eps^2)
  double total_energy = 0;      // kinetic + potential
  Vec3d momentum{0, 0, 0};      // sum m v
  Vec3d angular_momentum{0, 0, 0};  // sum m r x v about the origin
  // Set: potential_energy is the tree's own (its walk at this theta, sim/cpu_tree_potential.h), not the
  // exact pair sum above: a tree run measures its drift against the forces it steps with.
  std::optional<double> tree_theta;
};

// 2K / |W|: 1 in virial equilibrium. Unknown (nullopt), not 0, when there is no potential (W = 0: motion
// diagnostics alone, or nothing to attract).
std::optional<double> virial_ratio(const Diagnostics& d);

// The potential of `physics` (a force method's row says which). The pair potential is O(N^2) and runs on
// all hardware threads; time matters only for attractors, whose positions are taken in the records'
// precision, as the step of that precision puts them.
// Kinetic energy, momentum and angular momentum alone (potential 0): the part every potential shares.
Diagnostics motion_diagnostics(const std::vector<Particle>& particles);
Diagnostics motion_diagnostics(const std::vector<ParticleF64>& particles);
Diagnostics compute_diagnostics(const std::vector<Particle>& particles, Physics physics,
                                const SimParams& params, double time);
Diagnostics compute_diagnostics(const std::vector<ParticleF64>& particles, Physics physics,
                                const SimParams& params, double time);

}  // namespace coalesce
