// Definitions shared by host and device code: the HOST_DEVICE marker and small value types.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

namespace coalesce {

struct Vec3 {
  float x, y, z;
};

HOST_DEVICE inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
HOST_DEVICE inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
HOST_DEVICE inline Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
HOST_DEVICE inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Same size and alignment as CUDA's float4, so device code can reinterpret it for 16-byte loads.
struct alignas(16) Float4 {
  float x, y, z, w;
};

}  // namespace coalesce
