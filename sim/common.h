// Definitions shared by host and device code: the HOST_DEVICE marker and small value types, each a template
// over the scalar (float or double, sim/precision.h).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

namespace coalesce {

template <class Real>
struct Vec3T {
  Real x, y, z;
};
using Vec3 = Vec3T<float>;

template <class Real>
HOST_DEVICE inline Vec3T<Real> operator+(Vec3T<Real> a, Vec3T<Real> b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
template <class Real>
HOST_DEVICE inline Vec3T<Real> operator-(Vec3T<Real> a, Vec3T<Real> b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
template <class Real>
HOST_DEVICE inline Vec3T<Real> operator*(Vec3T<Real> a, Real s) {
  return {a.x * s, a.y * s, a.z * s};
}
template <class Real>
HOST_DEVICE inline Real dot(Vec3T<Real> a, Vec3T<Real> b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

// Four scalars moved as one vector: the vector layout's element and the force tiles' (x, y, z, m).
template <class Real>
struct Vec4T;
// Same size and alignment as CUDA's float4, so device code moves it with one 16-byte load.
template <>
struct alignas(16) Vec4T<float> {
  float x, y, z, w;
};
// Same size and alignment as CUDA 13's double4_32a (double4 is deprecated there): one 32-byte vector,
// two 128-bit loads on sm_90, one 256-bit load on sm_100 and later (docs/lab.md).
template <>
struct alignas(32) Vec4T<double> {
  double x, y, z, w;
};
using Float4 = Vec4T<float>;
using Double4 = Vec4T<double>;

// Whole-vector loads and stores. A double vector goes through CUDA's double4_32a in device code, the type
// nvcc lowers to the widest load the target has; everywhere else a struct copy is that load already.
template <class Real>
HOST_DEVICE inline Vec4T<Real> load_vec4(const Vec4T<Real>* at) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Real) == 8) {
    const double4_32a v = *reinterpret_cast<const double4_32a*>(at);
    return {v.x, v.y, v.z, v.w};
  }
#endif
  return *at;
}
template <class Real>
HOST_DEVICE inline void store_vec4(Vec4T<Real>* at, Vec4T<Real> value) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Real) == 8) {
    *reinterpret_cast<double4_32a*>(at) = double4_32a{value.x, value.y, value.z, value.w};
    return;
  }
#endif
  *at = value;
}

}  // namespace coalesce
