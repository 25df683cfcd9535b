// Host entry points of the diagnostics kernels: energy, momentum and angular momentum of the device state in
// double precision, with compute_diagnostics' definitions (sim/diagnostics.h). Each synchronizes `stream` to
// return the sums.
#pragma once

#include <cuda_runtime.h>

#include "sim/layout_storage.h"
#include "sim/diagnostics.h"
#include "sim/physics.h"

namespace coalesce::gpu {

// Kinetic energy, momentum, angular momentum and the pair potential,
// sum over i < j of -m_i m_j / sqrt(r^2 + eps^2).
Diagnostics all_pairs_diagnostics(const StateViews& state, double softening_squared, cudaStream_t stream);
// Kinetic energy, momentum, angular momentum and the potential of every particle in the attractors at their
// snapshot positions (the snapshot of the state's precision, widened).
Diagnostics attractor_diagnostics(const StateViews& state, const AttractorSnapshotT<double>& snapshot,
                                  double softening_squared, cudaStream_t stream);

// Kinetic energy, momentum and angular momentum alone (the potential 0, left to the caller: a tree's
// own, GpuTree).
Diagnostics motion_diagnostics(const StateViews& state, cudaStream_t stream);

}  // namespace coalesce::gpu
