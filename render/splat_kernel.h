// The CUDA point-splat rasterizer: each drawn particle of the packed render buffer is projected as
// particles.vert projects it and adds the light particles.frag would blend, with fp32 atomics, into a
// float4-per-pixel light buffer (w unused). Plain C++ header: the launch takes CUDA's stream by its name.
#pragma once

#include "sim/common.h"

struct CUstream_st;

namespace coalesce {

// How a particle's light reaches its pixel: three scalar atomics, one float4 vector atomic (sm_90 and
// later; scalar on older GPUs), or the vector atomic after summing the lanes of a warp that hit one pixel.
enum class SplatAtomics { Scalar, Vector, WarpAggregated };
const char* to_string(SplatAtomics atomics);

struct SplatParams {
  float view[16] = {};        // column-major, as glm and GL store them
  float projection[16] = {};  // column-major
  int width = 0;              // the light buffer, in pixels (row 0 at the bottom, as GL's)
  int height = 0;
  int particles = 0;         // records in the packed buffer
  int stride = 1;            // draw every stride-th record (the draw limit)
  float point_size = 0.02f;  // world-space diameter
  float speed_scale = 1.0f;  // 1 / the speed at the top of the colour map
  float intensity = 1.0f;    // per-particle light
  float max_pixels = 64.0f;  // the largest sprite, in pixels
};

// Adds the drawn particles' light to `light` (width x height Float4, not cleared here). Checks the launch.
void launch_splat(const Float4* packed, const SplatParams& params, Float4* light, SplatAtomics atomics,
                  CUstream_st* stream);

}  // namespace coalesce
