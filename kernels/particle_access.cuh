// Device-only helpers shared by the kernels. Whole-record access (position + mass as one float4, load and
// store of a particle) belongs to the layout views, host-device code in sim/layout_views.h.
#pragma once

#include "sim/layout_views.h"

namespace coalesce::gpu {

// Global index of this thread in a 1-D grid, in 64 bits so the last block of a huge N cannot overflow.
__device__ inline long long global_thread_index() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

}  // namespace coalesce::gpu
