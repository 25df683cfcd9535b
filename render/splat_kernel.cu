// The splat kernel: one thread per drawn particle; GL's point rules (vertex clipping, pixel centres
// inside the point's square, exp(-4 r^2) over gl_PointCoord) so the picture matches the point path.
#include "render/splat_kernel.h"

#include <cuda_runtime.h>

#include "kernels/launch.h"
#include "sim/sprite_light.h"

namespace coalesce {
namespace {

constexpr int kThreads = 256;

// One pixel's light; the w lane is unused (GL's alpha is ignored by the tone map too).
template <SplatAtomics A>
__device__ void add_light(float4* light, int pixel, float r, float g, float b) {
#if __CUDA_ARCH__ >= 900
  if constexpr (A != SplatAtomics::Scalar) {
    atomicAdd(light + pixel, make_float4(r, g, b, 0.0f));
    return;
  }
#endif
  float* p = reinterpret_cast<float*>(light + pixel);
  atomicAdd(p, r);
  atomicAdd(p + 1, g);
  atomicAdd(p + 2, b);
}

// Lanes of a warp whose flat pixels coincide sum their light first; the lowest such lane adds it once.
__device__ void add_flat_aggregated(float4* light, int pixel, float r, float g, float b, bool active) {
  __shared__ float3 staged[kThreads];
  const unsigned warp = __activemask();
  const unsigned same = __match_any_sync(warp, active ? pixel : -1);
  staged[threadIdx.x] = make_float3(r, g, b);
  __syncwarp(warp);
  const int lane = static_cast<int>(threadIdx.x & 31);
  if (active && lane == __ffs(same) - 1) {
    float3 sum = make_float3(0.0f, 0.0f, 0.0f);
    for (unsigned m = same; m != 0; m &= m - 1) {
      const float3 s = staged[(threadIdx.x & ~31u) + static_cast<unsigned>(__ffs(m) - 1)];
      sum.x += s.x;
      sum.y += s.y;
      sum.z += s.z;
    }
    add_light<SplatAtomics::Vector>(light, pixel, sum.x, sum.y, sum.z);
  }
}

template <SplatAtomics A>
__global__ void __launch_bounds__(kThreads)
    splat_kernel(const float4* __restrict__ packed, SplatParams p, float4* __restrict__ light) {
  const int drawn = (p.particles + p.stride - 1) / p.stride;
  const int j = static_cast<int>(blockIdx.x) * kThreads + static_cast<int>(threadIdx.x);
  // Warp-wide from here on: the aggregated variant's shuffle needs every lane of the warp.
  bool active = j < drawn;
  const float4 q = active ? __ldg(packed + static_cast<long long>(j) * p.stride) : make_float4(0, 0, 0, 0);
  const float* v = p.view;
  const float* m = p.projection;
  // particles.vert: view = V * (x, y, z, 1); clip = P * view (column-major).
  const float vx = v[0] * q.x + v[4] * q.y + v[8] * q.z + v[12];
  const float vy = v[1] * q.x + v[5] * q.y + v[9] * q.z + v[13];
  const float vz = v[2] * q.x + v[6] * q.y + v[10] * q.z + v[14];
  const float vw = v[3] * q.x + v[7] * q.y + v[11] * q.z + v[15];
  const float cx = m[0] * vx + m[4] * vy + m[8] * vz + m[12] * vw;
  const float cy = m[1] * vx + m[5] * vy + m[9] * vz + m[13] * vw;
  const float cz = m[2] * vx + m[6] * vy + m[10] * vz + m[14] * vw;
  const float cw = m[3] * vx + m[7] * vy + m[11] * vz + m[15] * vw;
  // GL clips a point by its vertex alone: outside the clip volume, the whole sprite goes.
  active = active && cw > 0.0f && fabsf(cx) <= cw && fabsf(cy) <= cw && fabsf(cz) <= cw;
  const float xw = (cx / cw * 0.5f + 0.5f) * static_cast<float>(p.width);
  const float yw = (cy / cw * 0.5f + 0.5f) * static_cast<float>(p.height);
  const float distance = fmaxf(-vz, 1e-3f);
  const float pixels = p.point_size * m[5] * 0.5f * static_cast<float>(p.height) / distance;
  const DrawnSprite sprite = drawn_sprite(pixels, p.max_pixels);
  const Rgb c = colour_map(q.w * p.speed_scale);
  const float k = p.intensity * sprite.light;

  if constexpr (A == SplatAtomics::WarpAggregated) {
    // Flat pixels are what pile up at large N; Gaussian sprites (few, large) take the plain path below.
    const int px = static_cast<int>(floorf(xw));
    const int py = static_cast<int>(floorf(yw));
    const bool flat = active && sprite.flat && px >= 0 && px < p.width && py >= 0 && py < p.height;
    add_flat_aggregated(light, flat ? py * p.width + px : -1, c.r * k, c.g * k, c.b * k, flat);
    if (!active || sprite.flat) return;
  } else {
    if (!active) return;
    if (sprite.flat) {
      // A 1-pixel point covers the pixel whose centre lies within half a pixel: the one containing it.
      const int px = static_cast<int>(floorf(xw));
      const int py = static_cast<int>(floorf(yw));
      if (px >= 0 && px < p.width && py >= 0 && py < p.height)
        add_light<A>(light, py * p.width + px, c.r * k, c.g * k, c.b * k);
      return;
    }
  }
  // A Gaussian sprite: every pixel whose centre lies inside the point's square, weighted by
  // exp(-4 r^2) with r from gl_PointCoord (the disc r <= 1 only, as particles.frag discards the rest).
  const float size = sprite.point_size;
  const float half = 0.5f * size;
  const int x0 = max(0, static_cast<int>(ceilf(xw - half - 0.5f)));
  const int x1 = min(p.width - 1, static_cast<int>(floorf(xw + half - 0.5f)));
  const int y0 = max(0, static_cast<int>(ceilf(yw - half - 0.5f)));
  const int y1 = min(p.height - 1, static_cast<int>(floorf(yw + half - 0.5f)));
  const float to_unit = 2.0f / size;
  for (int y = y0; y <= y1; ++y) {
    const float dy = (static_cast<float>(y) + 0.5f - yw) * to_unit;
    for (int x = x0; x <= x1; ++x) {
      const float dx = (static_cast<float>(x) + 0.5f - xw) * to_unit;
      const float r2 = dx * dx + dy * dy;
      if (r2 > 1.0f) continue;
      const float f = k * expf(-4.0f * r2);  // expf, not __expf: the CPU reference and GLSL exp agree
      add_light<A == SplatAtomics::Scalar ? SplatAtomics::Scalar : SplatAtomics::Vector>(
          light, y * p.width + x, c.r * f, c.g * f, c.b * f);
    }
  }
}

template <SplatAtomics A>
void launch_with(const Float4* packed, const SplatParams& p, Float4* light, cudaStream_t stream) {
  const int drawn = (p.particles + p.stride - 1) / p.stride;
  if (p.width <= 0 || p.height <= 0) return;  // no pixels to light (no drawn particles: launch skips it)
  launch(splat_kernel<A>, {drawn, kThreads, kThreads}, stream, reinterpret_cast<const float4*>(packed), p,
         reinterpret_cast<float4*>(light));
}

}  // namespace

const char* to_string(SplatAtomics atomics) {
  switch (atomics) {
    case SplatAtomics::Scalar:
      return "scalar";
    case SplatAtomics::Vector:
      return "vector";
    case SplatAtomics::WarpAggregated:
      return "warp-aggregated";
  }
  return "?";
}

void launch_splat(const Float4* packed, const SplatParams& params, Float4* light, SplatAtomics atomics,
                  CUstream_st* stream) {
  switch (atomics) {
    case SplatAtomics::Scalar:
      return launch_with<SplatAtomics::Scalar>(packed, params, light, stream);
    case SplatAtomics::Vector:
      return launch_with<SplatAtomics::Vector>(packed, params, light, stream);
    case SplatAtomics::WarpAggregated:
      return launch_with<SplatAtomics::WarpAggregated>(packed, params, light, stream);
  }
}

}  // namespace coalesce
