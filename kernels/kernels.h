// Host entry points of the CUDA kernels, one per kernel family; each dispatches on the layout and launches
// through kernels/launch.h. All are asynchronous on `stream`.
#pragma once

#include <cuda_runtime.h>

#include "sim/layout_storage.h"
#include "sim/physics.h"

namespace coalesce::gpu {

// v_i += dt * sum over j of the softened pull of body j on body i. The sum is split over the SMs
// (kernels/forces_all_pairs.cu) into `partials`, device memory of all_pairs_partial_floats(state) floats.
void all_pairs_kick(const StateViews& state, float softening_squared, float dt, float* partials,
                    cudaStream_t stream);
std::size_t all_pairs_partial_floats(const StateViews& state);
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
