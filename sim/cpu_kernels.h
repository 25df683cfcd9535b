// The CPU backend's kernels, templates over the layout views (any layout, any precision) and built only
// from sim/physics.h, so every layout runs the same arithmetic in the same order (bitwise-identical steps
// on the CPU within one precision).
#pragma once

#include "sim/layout_views.h"
#include "sim/physics.h"

namespace coalesce::cpu {

// Kick for bodies [begin, end) of `targets` from every body of `sources` (the same layout and precision;
// often the same state): a_i = sum over j in order (the self term adds exactly 0 for softening > 0), then
// v_i += a_i dt. Only target velocities are written, so ranges may run concurrently. A rank that owns a
// slice passes its slice as `targets` and all N as `sources`.
template <class View>
void all_pairs_kick(const View& targets, const View& sources, int begin, int end,
                    typename View::Scalar softening_squared, typename View::Scalar dt) {
  using Real = typename View::Scalar;
  for (int i = begin; i < end; ++i) {
    const Vec3T<Real> ri = targets.position(i);
    Vec3T<Real> acc{Real(0), Real(0), Real(0)};
    for (int j = 0; j < sources.n; ++j)
      accumulate_pair(acc, ri, sources.position(j), sources.mass(j), softening_squared);
    targets.set_velocity(i, kick(targets.velocity(i), acc, dt));
  }
}

template <class View>
void attractor_kick(const View& view, int begin, int end,
                    const AttractorSnapshotT<typename View::Scalar>& snapshot,
                    typename View::Scalar softening_squared, typename View::Scalar dt) {
  for (int i = begin; i < end; ++i) {
    const auto acc = attractor_acceleration(snapshot, view.position(i), softening_squared);
    view.set_velocity(i, kick(view.velocity(i), acc, dt));
  }
}

template <class View>
void drift_range(const View& view, int begin, int end, typename View::Scalar dt) {
  for (int i = begin; i < end; ++i) view.set_position(i, drift(view.position(i), view.velocity(i), dt));
}

// Writes x, y, z, |v| per particle as floats (the render buffer), |v| in the state's precision. On the CPU
// every pack variant is this same loop, so all variants produce identical output; the variants differ only
// in GPU memory-access patterns.
template <class View>
void pack_range(const View& view, int begin, int end, float* out) {
  for (int i = begin; i < end; ++i) {
    const auto p = view.position(i);
    float* o = out + static_cast<long long>(i) * 4;
    o[0] = static_cast<float>(p.x);
    o[1] = static_cast<float>(p.y);
    o[2] = static_cast<float>(p.z);
    o[3] = static_cast<float>(speed(view.velocity(i)));
  }
}

}  // namespace coalesce::cpu
