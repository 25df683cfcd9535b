// Bytes each kernel must move and interactions it computes, per layout and solver: one set of formulas
// shared by the CPU and CUDA backends so their GB/s figures mean the same thing.
#pragma once

#include "sim/kernel_stats.h"
#include "sim/layout.h"

namespace coalesce {

// Bytes of one particle's position (+ mass) record as a kernel must load it: 16 B either way, since
// AoS/SoA read x, y, z and mass (4 floats) and float4 reads one (x, y, z, mass) float4.
constexpr double position_mass_bytes(Layout) {
  return 16.0;
}
// Position or velocity alone: 12 B for AoS/SoA (3 floats), 16 B for float4 (whole float4s move).
constexpr double vec3_bytes(Layout layout) {
  return layout == Layout::Float4 ? 16.0 : 12.0;
}
// The whole stored state of one particle: 28 B for AoS/SoA, 32 B for float4 (the unused vel.w included).
constexpr double state_bytes(Layout layout) {
  return layout == Layout::Float4 ? 32.0 : 28.0;
}

// Each input read once, each output written once ("ideal" traffic; caches may do better or worse):
// - Forces, all-pairs: read pos+mass (16) and vel (12 | 16), write vel (12 | 16): 40 B/particle for
//   AoS/SoA, 48 for float4. The N^2 re-reads of the other bodies are cache/shared-memory traffic and
//   are counted as interactions, not bytes.
// - Forces, attractors: read pos (12 | 16) and vel (12 | 16), write vel (12 | 16): 36 B or 48 B.
// - Integrate: read pos (12 | 16) and vel (12 | 16), write pos (12 | 16): 36 B or 48 B.
// - Pack: read pos and vel (24 B; float4 32 B), write x, y, z, speed (16 B): 40 B or 48 B.
// - Convert: read the whole state and write it (28 + 28 B; float4 32 + 32 B). For a conversion between
//   two different layouts use convert_bytes(from, to, n).
constexpr double bytes_moved(KernelKind kind, Layout layout, Solver solver, int n) {
  const double count = static_cast<double>(n);
  const double v = vec3_bytes(layout);
  switch (kind) {
    case KernelKind::Forces:
      return solver == Solver::AllPairs ? count * (position_mass_bytes(layout) + v + v) : count * (v + v + v);
    case KernelKind::Integrate:
      return count * (v + v + v);
    case KernelKind::Pack:
      return count * (v + v + 16.0);
    case KernelKind::Convert:
      return count * 2.0 * state_bytes(layout);
  }
  return 0.0;
}

// A layout conversion reads the source state and writes the destination state.
constexpr double convert_bytes(Layout from, Layout to, int n) {
  return static_cast<double>(n) * (state_bytes(from) + state_bytes(to));
}

// Body-body interactions of the forces kernel: N^2 for all-pairs (the self term included, as computed),
// N * k for k attractors; 0 for every other kernel.
constexpr double interactions(KernelKind kind, Solver solver, int n, int attractor_count) {
  if (kind != KernelKind::Forces) return 0.0;
  const double count = static_cast<double>(n);
  return solver == Solver::AllPairs ? count * count : count * attractor_count;
}

}  // namespace coalesce
