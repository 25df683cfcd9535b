// The CPU backend's vector loops, one set per SIMD target (sim/cpu_simd.cpp compiles the same source once
// per target through Highway). They work on plain arrays: the backend stages what a layout stores into them
// where the loop is compute-bound (forces), and hands the layout's own arrays where it is memory-bound
// (integrate, pack). Arithmetic is the scalar reference's (sim/physics.h) except the force scale m / r^3,
// which is the target's reciprocal-square-root seed refined by a series (bound in docs/kernels.md).
#pragma once

#include <cfloat>
#include <cstddef>

#include "sim/cpu_target.h"
#include "sim/limits.h"

namespace coalesce {

// Particles per force block: a multiple of every target's lanes in either precision (AVX-512 fp32 is 16),
// and the unit the threads split the forces into.
inline constexpr int kSimdBlock = 64;

// Targets and sources within this reach of the origin between them (the largest |coordinate| of each, added)
// are near: every r^2 is below 3e38 + eps^2, inside float's range, and the force loop needs nothing for the
// edges of the input range. Farther, it caps r^2 and (fp64 without AVX-512) seeds over every double.
inline constexpr double kSimdNearReach = 1e19;
inline constexpr double kLargestNearSquare =
    3 * kSimdNearReach * kSimdNearReach * (1 + 1e-6) + kSofteningRange.hi * kSofteningRange.hi;
static_assert(kLargestNearSquare < FLT_MAX, "a near r^2, rounded, must stay inside float's range");

template <class Real>
struct SimdForceSources {
  const Real *x, *y, *z, *m;
  int count;
  Real reach;  // at least the largest |x|, |y| or |z| of the sources
};

// A tree node's multipole as the vector node loop reads it: centre of mass x, y, z, mass, then the traceless
// quadrupole xx, yy, zz, xy, xz, yz, kMultipoleFields scalars a node.
inline constexpr int kMultipoleFields = 10;

// The multipoles a group of targets takes whole (sim/cpu_tree.h): the nodes ids[0, count) of `records`.
template <class Real>
struct SimdNodeSources {
  const Real* records;
  const int* ids;
  int count;
};

template <class Real>
struct SimdKernelsT {
  // a_i = sum over j in order of m_j d / (|d|^2 + eps^2)^{3/2}, d = r_j - r_i, for targets [0, count) at
  // (tx, ty, tz) (count <= kSimdBlock, rounded up to whole register pairs: all-pairs passes kSimdBlock, a
  // tree group its size), written to (ax, ay, az); all six arrays 64-byte aligned and kSimdBlock long. The
  // near loop when the targets' reach and sources.reach add up to at most kSimdNearReach, else the far one.
  void (*block_accelerations)(const Real* tx, const Real* ty, const Real* tz, int count,
                              SimdForceSources<Real> sources, Real softening_squared, Real* ax, Real* ay,
                              Real* az);
  // x += v dt for particles [begin, end) of SoA rows (unaligned), exactly the scalar drift's rounding.
  void (*drift_soa)(Real* x, Real* y, Real* z, const Real* vx, const Real* vy, const Real* vz,
                    std::ptrdiff_t begin, std::ptrdiff_t end, Real dt);
  // The same over (x, y, z, w) vectors: pos_mass and vel hold 4 scalars per particle, w is kept.
  void (*drift_vec4)(Real* pos_mass, const Real* vel, std::ptrdiff_t begin, std::ptrdiff_t end, Real dt);
  // out[4i..4i+3] = x, y, z, |v| as floats for [begin, end), bitwise the scalar pack's.
  void (*pack_soa)(const Real* x, const Real* y, const Real* z, const Real* vx, const Real* vy,
                   const Real* vz, std::ptrdiff_t begin, std::ptrdiff_t end, float* out);
  void (*pack_vec4)(const Real* pos_mass, const Real* vel, std::ptrdiff_t begin, std::ptrdiff_t end,
                    float* out);
  // a_i += sum over nodes in order of -M r / r^3 + Q r / r^5 - 5/2 (r.Q.r) r / r^7, r = target - com with
  // r^2 softened, for targets [0, count) of (tx, ty, tz), added to (ax, ay, az); all six arrays aligned and
  // kSimdBlock long (whole register pairs are computed). Near only: the targets and the centres of mass
  // within kSimdNearReach of the origin between them.
  void (*node_accelerations)(const Real* tx, const Real* ty, const Real* tz, int count,
                             SimdNodeSources<Real> nodes, Real softening_squared, Real* ax, Real* ay,
                             Real* az);
};

struct SimdKernels {
  SimdKernelsT<float> f32;
  SimdKernelsT<double> f64;
};

// The loops compiled for `target`; null for CpuTarget::Scalar (the reference loops in sim/cpu_kernels.h)
// and for a target this CPU does not run.
const SimdKernels* simd_kernels(CpuTarget target);

template <class Real>
const SimdKernelsT<Real>& simd_kernels_for(const SimdKernels& kernels) {
  if constexpr (sizeof(Real) == sizeof(float))
    return kernels.f32;
  else
    return kernels.f64;
}

}  // namespace coalesce
