// How the CUDA backend lays one state buffer out per layout (32 bytes per particle reserved, the largest
// layout), and the views the kernels are instantiated over.
#pragma once

#include <cstddef>

#include "sim/layout.h"
#include "sim/layout_views.h"

namespace coalesce {

// Bytes reserved per particle in a state buffer: enough for any layout, so switching never reallocates.
constexpr std::size_t kStateBytesPerParticle = 32;

struct StateViews {
  Layout layout;
  AosView aos;
  SoaView soa;
  Float4View f4;
};

// AoS: N records; SoA: seven N-float rows x, y, z, vx, vy, vz, m; float4: N pos_mass then N vel.
inline StateViews make_state_views(Layout layout, void* base, int n) {
  StateViews v{layout,
               {nullptr, n},
               {nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, n},
               {nullptr, nullptr, n}};
  const std::size_t count = static_cast<std::size_t>(n);
  float* f = static_cast<float*>(base);
  switch (layout) {
    case Layout::AoS:
      v.aos.particles = static_cast<Particle*>(base);
      break;
    case Layout::SoA:
      v.soa = {f, f + count, f + 2 * count, f + 3 * count, f + 4 * count, f + 5 * count, f + 6 * count, n};
      break;
    case Layout::Float4:
      v.f4.pos_mass = static_cast<Float4*>(base);
      v.f4.vel = v.f4.pos_mass + count;
      break;
  }
  return v;
}

// Calls fn(view) with the view of v.layout; lets one template body serve all three layouts.
template <class Fn>
void with_view(const StateViews& v, Fn&& fn) {
  switch (v.layout) {
    case Layout::AoS:
      fn(v.aos);
      return;
    case Layout::SoA:
      fn(v.soa);
      return;
    case Layout::Float4:
      fn(v.f4);
      return;
  }
}

}  // namespace coalesce
