// The CPU backend's kernels, templates over the layout views and built only from sim/physics.h, so every
// layout runs the same arithmetic in the same order (bitwise-identical steps on the CPU).
#pragma once

#include "sim/layout_views.h"
#include "sim/physics.h"

namespace coalesce::cpu {

// Kick for particles [begin, end): a_i = sum over j = 0..n-1 in order (the self term adds exactly 0 for
// softening > 0), then v_i += a_i dt. Positions are only read, so ranges may run concurrently.
template <class View>
void all_pairs_kick(const View& view, int begin, int end, float softening_squared, float dt) {
  for (int i = begin; i < end; ++i) {
    const Vec3 ri = view.position(i);
    Vec3 acc{0.0f, 0.0f, 0.0f};
    for (int j = 0; j < view.n; ++j)
      accumulate_pair(acc, ri, view.position(j), view.mass(j), softening_squared);
    view.set_velocity(i, kick(view.velocity(i), acc, dt));
  }
}

template <class View>
void attractor_kick(const View& view, int begin, int end, const AttractorSnapshot& snapshot,
                    float softening_squared, float dt) {
  for (int i = begin; i < end; ++i) {
    const Vec3 acc = attractor_acceleration(snapshot, view.position(i), softening_squared);
    view.set_velocity(i, kick(view.velocity(i), acc, dt));
  }
}

template <class View>
void drift_range(const View& view, int begin, int end, float dt) {
  for (int i = begin; i < end; ++i) view.set_position(i, drift(view.position(i), view.velocity(i), dt));
}

// Writes x, y, z, |v| per particle. On the CPU every pack variant is this same loop, so all variants
// produce identical output; the variants differ only in GPU memory-access patterns.
template <class View>
void pack_range(const View& view, int begin, int end, float* out) {
  for (int i = begin; i < end; ++i) {
    const Vec3 p = view.position(i);
    float* o = out + static_cast<long long>(i) * 4;
    o[0] = p.x;
    o[1] = p.y;
    o[2] = p.z;
    o[3] = speed(view.velocity(i));
  }
}

}  // namespace coalesce::cpu
