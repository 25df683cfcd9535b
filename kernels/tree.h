// The GPU Barnes-Hut tree of the tree method (issue 32), the same algorithm as the CPU reference
// (sim/cpu_tree.h): 63-bit Morton keys over the bounding cube, a stable radix sort, a private sorted copy of
// the sources in the state's own layout, a Karras (2012) binary radix tree walked as the octree it encodes
// (the CPU's nodes, chains of one child collapsed), monopole + traceless quadrupole moments about the centre
// of mass, and a walk by warps, one group of consecutive curve positions each. TreeSettings' orders switch
// the copy to a fixed random permutation of its slots and the groups to consecutive state indices, for the
// lab's lesson (docs/lab.md, `tree-order`): the default is the fast path, unchanged.
//
// Every target's sum depends only on the tree and on its group, so slices of the targets give the whole
// step's bits; the same state gives the same bits (no atomics in any sum). All calls are asynchronous on
// `stream` but last_counts() and last_times(), which wait for it.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernels/cuda_event.h"
#include "kernels/device_buffer.h"
#include "kernels/tree_nodes.h"
#include "sim/body_span.h"
#include "sim/common.h"
#include "sim/layout_storage.h"
#include "sim/sim_params.h"
#include "sim/tree_settings.h"

namespace coalesce::gpu {

// One internal node of the binary radix tree: children (ids < n - 1 internal, else the leaf n - 1 + k of
// curve position k) and the curve positions [first, last] it holds.
struct TreeLinks {
  int left, right, first, last;
};

// An internal node's moments in double, what its parent's are combined from.
struct TreeMoments {
  double mass;
  double com[3];
  double quad[6];  // traceless: xx, yy, zz, xy, xz, yz of sum m (3 d d - |d|^2 I)
  double lo[3], hi[3];
  double extent;  // an upper bound of |x - com| over its bodies
};

// What a walk computes for its groups: velocities kicked, the accelerations of listed targets, or every
// body's m phi (kernels/tree_walk.cu).
enum class WalkMode { Kick, List, Potential };

// Milliseconds of each stage of the last build and kick, from CUDA events.
struct TreeStageTimes {
  double keys_sort_ms = 0;  // bounding box, keys, radix sort, the sorted copy
  double build_ms = 0;      // the radix tree's links
  double upsweep_ms = 0;    // moments and extents
  double walk_ms = 0;       // the last kick's walk
};

class GpuTree {
 public:
  GpuTree();

  // Builds the tree of all state.n bodies (see the top of this file). Throws std::invalid_argument for a
  // group_size other than 1..32 or 64 (a group is one warp, each lane holding one target or two).
  void build(const StateViews& state, const TreeSettings& settings, cudaStream_t stream);
  // v += a dt for the targets (state order) through the state's own view; eps^2 and dt in the state's
  // precision (softening_squared<Real>, time_step<Real>), as all-pairs. Groups without a target are skipped.
  void kick(const StateViews& state, BodyRange targets, const SimParams& params, cudaStream_t stream);
  // The same walk's accelerations, 3 doubles a target, of `count` targets given by state index (`targets`
  // and `out` device arrays); the bits kick adds (widened).
  void accelerations(const StateViews& state, const int* targets, int count, double* out,
                     const SimParams& params, cudaStream_t stream);

  // The tree's potential energy W = 1/2 sum m_i phi_i of the state it was built from, phi from the force
  // walk's own interaction lists: -m/r over the bodies (the target's own skipped), -M/r - 1/2 (r.Q.r)/r^5
  // over the nodes (sim/cpu_tree_potential.h), in double from the stored values widened, eps^2 =
  // softening^2 in double as the exact potential's. A fixed order: the same state gives the same bits.
  // Synchronizes `stream`.
  double potential_energy(const StateViews& state, const SimParams& params, cudaStream_t stream);

  // Interaction counts of the last kick over its targets; waits for it. Throws std::runtime_error if a
  // walk ran out of its stack (a bug: the stack is sized for the deepest tree the keys allow).
  TreeCounts last_counts() const;
  // Stage times of the last build and kick; waits for both.
  TreeStageTimes last_times() const;

  // For tests, after the stream synchronizes: the body at each curve position, and the sorted copy's
  // {x, y, z, m} widened to double, by curve position (read through the slots when shuffled).
  std::vector<int> download_order() const;
  std::vector<Vec4T<double>> download_sources() const;
  int body_count() const { return m_n; }

 private:
  void check_state(const StateViews& state) const;
  void walk(WalkMode mode, const StateViews& state, BodyRange targets, const int* list, int count,
            double* out, const SimParams& params, cudaStream_t stream);

  int m_n = 0;
  Layout m_layout = Layout::AoS;
  Precision m_precision = Precision::Fp32;
  TreeSettings m_settings;
  std::size_t m_capacity = 0;  // bodies the buffers hold
  DeviceBuffer<double> m_box;  // block partials of the bounding box, then the box (6 doubles)
  DeviceBuffer<std::uint64_t> m_keys_in, m_keys;
  DeviceBuffer<int> m_index_in, m_order, m_position;  // curve <- state index, state index -> curve
  DeviceBuffer<std::byte> m_sort_temp;
  DeviceBuffer<std::byte> m_sources;  // the sorted copy, in the state's layout and precision
  DeviceBuffer<int> m_slot;           // SourceOrder::Shuffled: where curve position k is stored
  int m_slot_count = 0;               // bodies m_slot was made for: it depends on N alone, so it is kept
  DeviceBuffer<TreeLinks> m_links;    // n - 1 internal nodes
  DeviceBuffer<int> m_delta;          // common key-prefix bits of each internal node (>= 63: equal keys)
  DeviceBuffer<int> m_parent;         // 2n - 1 nodes: internal then leaves; -1 for the root
  DeviceBuffer<int> m_arrivals;       // upsweep: children done per internal node
  DeviceBuffer<TreeMoments> m_moments;
  DeviceBuffer<OctreeKids> m_kids;              // n - 1 internal nodes: how the walk opens each
  DeviceBuffer<std::byte> m_walk_nodes;         // 2n - 1 nodes' {com, m}, quadrupole and extent in Real
  DeviceBuffer<int> m_stacks;                   // the walk's per-warp stacks of node ids
  DeviceBuffer<unsigned long long> m_counters;  // pp, pn, next work item, stack overflow
  cudaStream_t m_last_kick_stream = nullptr;
  cudaStream_t m_last_build_stream = nullptr;
  CudaEvent m_build_start, m_sorted, m_linked, m_swept, m_walk_start, m_walk_end;
  bool m_kicked = false;
};

// Exact accelerations of `count` targets (state indices, device array) from all n bodies, summed in double
// over a fixed split and a fixed reduction (tiles of targets x chunks of bodies); eps2 in double (pass the
// state's softening_squared<Real> widened to compare with the tree). Waits for its sums (its scratch is its
// own).
void direct_accelerations(const StateViews& state, const int* targets, int count, double* out, double eps2,
                          cudaStream_t stream);

}  // namespace coalesce::gpu
