// Host entry points of the CUDA kernels, one per kernel family; each dispatches on the layout and launches
// through kernels/launch.h. All are asynchronous on `stream`.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "sim/layout_storage.h"
#include "sim/mutual_tiles.h"
#include "sim/physics.h"
#include "sim/sim_params.h"

namespace coalesce::gpu {

// How all_pairs_kick splits the (body chunk, j tile) pairs over this device's resident blocks, and the
// partial sums that takes, in the state's precision (kernels/forces_all_pairs.cu): worked out once per
// step, before the timing.
struct AllPairsSchedule {
  long long units = 0;  // chunks x tiles
  int tiles = 0;        // shared-memory tiles of bodies j
  int blocks = 0;       // blocks launched
  int chunks = 0;       // chunks of bodies i
  std::size_t partial_bytes = 0;
};
// The schedule for bodies `targets` pulled by every body of `sources` (one layout and precision).
AllPairsSchedule all_pairs_schedule(const StateViews& targets, const StateViews& sources);
// v_i += dt * sum over j of the softened pull of body j of `sources` on body i of `targets`, split by
// `schedule` into `partials` (device memory of schedule.partial_bytes). `targets` and `sources` may be the
// same state, or a slice of it and the whole (a rank's own bodies against all N): only target velocities
// are written. eps^2 and dt in the state's precision (softening_squared<Real>, sim/sim_params.h).
void all_pairs_kick(const StateViews& targets, const StateViews& sources, const AllPairsSchedule& schedule,
                    const SimParams& params, void* partials, cudaStream_t stream);
// The mutual scheme's split (sim/mutual_tiles.h, tile size for this device's resident warps) and the
// bytes of its partial sums, in the state's precision (kernels/forces_all_pairs_mutual.cu).
struct MutualSchedule {
  MutualTiles tiles;
  std::size_t partial_bytes = 0;
};
MutualSchedule mutual_schedule(const StateViews& state);
// v_i += dt * sum over j of the softened pull of body j on body i, each unordered pair evaluated once,
// through `partials` (device memory of schedule.partial_bytes). Bitwise repeatable; the layouts agree.
void mutual_kick(const StateViews& state, const MutualSchedule& schedule, const SimParams& params, void* partials,
                 cudaStream_t stream);
// v_i += dt * pull of the attractors at their positions at `time`, in the state's precision.
void attractor_kick(const StateViews& state, const SimParams& params, double time, cudaStream_t stream);
// x_i += v_i dt.
void drift(const StateViews& state, float dt, cudaStream_t stream);
// out[i] = {x, y, z, |v|} as floats in any precision; `out` must be 16-byte aligned. Every variant writes the
// same bits.
void pack(const StateViews& state, PackVariant variant, Float4* out, cudaStream_t stream);
// Copies the state from one layout to another of the same precision (different buffers), bitwise; the
// vector layout's vel.w becomes 0.
void convert(const StateViews& from, const StateViews& to, cudaStream_t stream);

}  // namespace coalesce::gpu
