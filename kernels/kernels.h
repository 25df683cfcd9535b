// Host entry points of the CUDA kernels, one per kernel family; each dispatches on the layout and launches
// through kernels/launch.h. All are asynchronous on `stream`.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <optional>

#include "sim/body_span.h"
#include "sim/layout_storage.h"
#include "sim/mutual_tiles.h"
#include "sim/physics.h"
#include "sim/sim_params.h"

namespace coalesce::gpu {

using coalesce::BodyRange;  // the targets a launch kicks (all N, or a rank's slice)
// Segments [begin, end) of the j range (AllPairsSchedule::segments).
struct SegmentRange {
  int begin = 0;
  int end = 0;
};
// How all_pairs_kick splits a range of targets pulled by all N sources (kernels/forces_all_pairs.cu): the
// j range is cut into segments of a length that depends on N alone, one partial sum per (chunk of targets,
// segment), added in segment order. Worked out once per step, before the timing.
struct AllPairsSchedule {
  int sources = 0;          // N: every body pulls
  int tiles = 0;            // shared-memory tiles of the sources
  int segment_tiles = 0;    // tiles per segment
  int segments = 0;         // segments of the j range
  int chunks = 0;           // chunks of target bodies
  int resident_blocks = 0;  // the most blocks one launch takes: resident slots x waves
  std::size_t partial_bytes = 0;  // chunks x segments partial sums, in the state's precision
};
// The schedule for the bodies `targets` of `state`, pulled by all of its bodies.
AllPairsSchedule all_pairs_schedule(const StateViews& state, BodyRange targets);
// Its partial_bytes for a whole step of N bodies in `layout` and `precision`, with no state at hand.
std::size_t one_sided_partial_bytes(int n, Layout layout, Precision precision);
// The partial sums of `segments` for `targets` into `partials` (device memory of schedule.partial_bytes).
void all_pairs_partials(const StateViews& state, BodyRange targets, const AllPairsSchedule& schedule,
                        SegmentRange segments, const SimParams& params, void* partials, cudaStream_t stream);
// v_i += dt * the sum of body i's partials in segment order, for the bodies `targets` (every segment's
// partials written before).
void all_pairs_finish(const StateViews& state, BodyRange targets, const AllPairsSchedule& schedule,
                      const SimParams& params, const void* partials, cudaStream_t stream);
// Both: v_i += dt * sum over j of the softened pull of body j on body i, for i in `targets`, j all of
// `state`. Only target velocities are written. eps^2 and dt in the state's precision (softening_squared<Real>,
// sim/sim_params.h). A body's result does not depend on `targets`.
void all_pairs_kick(const StateViews& state, BodyRange targets, const AllPairsSchedule& schedule,
                    const SimParams& params, void* partials, cudaStream_t stream);
// The mutual scheme's split (sim/mutual_tiles.h, tile size for this device's resident warps) and the
// bytes of its partial sums, in the state's precision (kernels/forces_all_pairs_mutual.cu).
struct MutualSchedule {
  MutualTiles tiles;
  std::size_t partial_bytes = 0;
};
// `free_bytes`: the free device memory its cap is a share of; none: cudaMemGetInfo now.
MutualSchedule mutual_schedule(const StateViews& state, std::optional<std::size_t> free_bytes = std::nullopt);
// The partial sums each all-pairs scheme allocates for N bodies in `layout` and `precision` on the current
// device, `free_bytes` free when the mutual schedule is made: the device-memory line says them at start.
struct PartialSumBytes {
  std::size_t one_sided = 0;
  std::size_t mutual = 0;
};
PartialSumBytes all_pairs_partial_bytes(int n, Layout layout, Precision precision, std::size_t free_bytes);
// v_i += dt * sum over j of the softened pull of body j on body i, each unordered pair evaluated once,
// through `partials` (device memory of schedule.partial_bytes). Bitwise repeatable; the layouts agree.
void mutual_kick(const StateViews& state, const MutualSchedule& schedule, const SimParams& params, void* partials,
                 cudaStream_t stream);
// v_i += dt * pull of the attractors at their positions at `time`, in the state's precision, for i in `bodies`.
void attractor_kick(const StateViews& state, BodyRange bodies, const SimParams& params, double time,
                    cudaStream_t stream);
// x_i += v_i dt for i in `bodies`.
void drift(const StateViews& state, BodyRange bodies, double dt, cudaStream_t stream);
// out[i] = {x, y, z, m} of body i in the state's precision (Vec4T<Real>), for i in `bodies`; `out` holds N.
void export_sources(const StateViews& state, BodyRange bodies, void* out, cudaStream_t stream);
// Position and mass of body i from in[i], for i in `bodies`: the bodies other ranks moved.
void import_sources(const StateViews& state, BodyRange bodies, const void* in, cudaStream_t stream);
// out[i] = {x, y, z, |v|} as floats in any precision; `out` must be 16-byte aligned. Every variant writes the
// same bits.
void pack(const StateViews& state, PackVariant variant, Float4* out, cudaStream_t stream);
// Copies the state from one layout to another of the same precision (different buffers), bitwise; the
// vector layout's vel.w becomes 0.
void convert(const StateViews& from, const StateViews& to, cudaStream_t stream);

}  // namespace coalesce::gpu
