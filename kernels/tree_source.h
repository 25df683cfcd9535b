// The tree's sorted copy of the sources, {x, y, z, m} per body in the state's own layout, so that the walk's
// body loads are the layout's: AoS a record of four scalars read one by one, SoA four arrays, Float4 one
// Vec4T<Real> vector. Host and device code (sizes on the host, loads and stores in the kernels).
#pragma once

#include <cstddef>

#include "sim/common.h"
#include "sim/layout.h"

namespace coalesce::gpu {

template <Layout L, class Real>
struct SourceView;

template <class Real>
struct SourceView<Layout::AoS, Real> {
  struct Body {
    Real x, y, z, m;  // natural alignment: four scalar loads, as the state's AoS records are read
  };
  Body* bodies;
  static constexpr std::size_t bytes_for(int n) { return sizeof(Body) * static_cast<std::size_t>(n); }
  HOST_DEVICE static SourceView over(void* base, int) { return {static_cast<Body*>(base)}; }
  HOST_DEVICE Vec4T<Real> position_mass(int k) const {
    const Body& b = bodies[k];
    return {b.x, b.y, b.z, b.m};
  }
  HOST_DEVICE void store(int k, Vec4T<Real> v) const { bodies[k] = Body{v.x, v.y, v.z, v.w}; }
};

template <class Real>
struct SourceView<Layout::SoA, Real> {
  Real *x, *y, *z, *m;
  static constexpr std::size_t bytes_for(int n) { return 4 * sizeof(Real) * static_cast<std::size_t>(n); }
  HOST_DEVICE static SourceView over(void* base, int n) {
    Real* f = static_cast<Real*>(base);
    const std::size_t count = static_cast<std::size_t>(n);
    return {f, f + count, f + 2 * count, f + 3 * count};
  }
  HOST_DEVICE Vec4T<Real> position_mass(int k) const { return {x[k], y[k], z[k], m[k]}; }
  HOST_DEVICE void store(int k, Vec4T<Real> v) const {
    x[k] = v.x;
    y[k] = v.y;
    z[k] = v.z;
    m[k] = v.w;
  }
};

template <class Real>
struct SourceView<Layout::Float4, Real> {
  Vec4T<Real>* bodies;
  static constexpr std::size_t bytes_for(int n) { return sizeof(Vec4T<Real>) * static_cast<std::size_t>(n); }
  HOST_DEVICE static SourceView over(void* base, int) { return {static_cast<Vec4T<Real>*>(base)}; }
  HOST_DEVICE Vec4T<Real> position_mass(int k) const { return load_vec4(bodies + k); }
  HOST_DEVICE void store(int k, Vec4T<Real> v) const { store_vec4(bodies + k, v); }
};

// The source view that goes with a state view type.
template <class View>
using SourceFor = SourceView<View::kLayout, typename View::Scalar>;

// The sorted copy stored at a fixed permutation (SourceOrder::Shuffled): curve position k lives at slot[k],
// so every access goes through one more load, coalesced along the curve, to a scattered body.
template <class Inner>
struct ShuffledSource {
  Inner inner;
  const int* slot;
  HOST_DEVICE auto position_mass(int k) const { return inner.position_mass(slot[k]); }
  template <class Vec4>
  HOST_DEVICE void store(int k, Vec4 v) const {
    inner.store(slot[k], v);
  }
};

}  // namespace coalesce::gpu
