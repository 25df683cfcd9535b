// Host entry points of the CUDA kernels, one per kernel family; each dispatches on the layout and launches
// through kernels/launch.h. All are asynchronous on `stream`.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "sim/layout_storage.h"
#include "sim/physics.h"

namespace coalesce::gpu {

// How all_pairs_kick splits the (body chunk, j tile) pairs over this device's resident blocks, and the
// partial-sum floats that takes (kernels/forces_all_pairs.cu): worked out once per step, before the timing.
struct AllPairsSchedule {
  long long units = 0;  // chunks x tiles
  int tiles = 0;        // shared-memory tiles of bodies j
  int blocks = 0;       // blocks launched
  int chunks = 0;       // chunks of bodies i
  std::size_t partial_floats = 0;
};
AllPairsSchedule all_pairs_schedule(const StateViews& state);
// v_i += dt * sum over j of the softened pull of body j on body i, split by `schedule` into `partials`
// (device memory of schedule.partial_floats floats).
void all_pairs_kick(const StateViews& state, const AllPairsSchedule& schedule, float softening_squared, float dt,
                    float* partials, cudaStream_t stream);
// v_i += dt * pull of the attractors at their snapshot positions.
void attractor_kick(const StateViews& state, const AttractorSnapshot& snapshot, float softening_squared,
                    float dt, cudaStream_t stream);
// x_i += v_i dt.
void drift(const StateViews& state, float dt, cudaStream_t stream);
// out[i] = {x, y, z, |v|}; `out` must be 16-byte aligned. Every variant writes the same bits.
void pack(const StateViews& state, PackVariant variant, Float4* out, cudaStream_t stream);
// Copies the state from one layout to another (different buffers), bitwise; float4's vel.w becomes 0.
void convert(const StateViews& from, const StateViews& to, cudaStream_t stream);

}  // namespace coalesce::gpu
