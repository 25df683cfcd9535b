// The tree's walk (kernels/tree.h): one warp per group of consecutive curve positions (or state indices,
// TargetOrder::Particle). The opening test is the group's, so the warp stays converged: each lane tests one
// node of a stack of up to 32, ballots append the accepted nodes to a shared node list and the opened leaves'
// bodies to a shared list of ranges, and the opened nodes' octree children go back on the stack. A list is
// evaluated 32 entries at a time, every lane against all 32 from shared memory. A group of 64 gives each lane
// two targets (lane l: group members l and l + 32), so each list entry loaded is pulled twice. The order of
// every sum is fixed by the tree and the group alone. Both kinds of pull in the state's precision: body-body
// as all-pairs computes it, body-node monopole + quadrupole as the CPU reference's formula. The potential walk
// (GpuTree::potential_energy) is the same walk summing each target's phi in double instead.
#include <algorithm>
#include <stdexcept>
#include <type_traits>

#include "kernels/launch.h"
#include "kernels/tree.h"
#include "kernels/tree_nodes.h"
#include "kernels/tree_source.h"
#include "sim/physics.h"

namespace coalesce::gpu {

namespace {

constexpr int kThreads = 128;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kAll = 0xffffffffu;
// Blocks an SM should hold: 8 caps fp32 at 64 registers (half the SM's warps), which the opened node's
// children in registers would otherwise push to 72 (7 blocks); fp64 would spill under that cap, so none.
// Two targets a lane spill 120 bytes at 64 in fp32, so 6 blocks (80 registers) there.
template <class Real, int kPerLane>
constexpr int kMinBlocks = sizeof(Real) == 4 ? (kPerLane == 1 ? 8 : 6) : 1;
// Stack entries a warp may need: each pass pops up to 32 nodes and pushes at most 8 children of each (256),
// and the entries pushed on top of a layer are one octree level deeper, so at most 21 such layers (the
// keys' levels) stand at once. Checked anyway: an overflow is counted and last_counts() throws.
constexpr int kStackCapacity = 22 * 256;

template <class Real>
struct WarpLists {
  Vec4T<Real> bodies[32];                      // a chunk of bodies: position and mass
  Vec4T<Real> com_extent[32], quad_a[32], quad_b[32];  // a chunk of nodes
  int nodes[64];                               // accepted nodes waiting (< 32 between passes)
  int range_first[64], range_count[64], range_start[64];  // opened leaves' bodies waiting (< 32 bodies)
};

// The potential walk's lists: the waiting bodies' curve positions too, for each target's own-pair skip. Its
// own type, so that the force walk's shared memory (and the L1 carve-out it leaves) is unchanged.
template <class Real>
struct PotentialLists : WarpLists<Real> {
  int body_at[32];
};

// A target's potential: -sum m / r over the bodies and -M/r - 1/2 (r.Q.r)/r^5 over the nodes
// (sim/cpu_tree_potential.h), in double from the stored values widened, eps^2 = softening^2 in double as
// the exact potential's; `self` is the target's curve position, whose pair is skipped.
struct PotentialSum {
  double phi;
  double eps2;
  int self;
};

template <class Real>
struct WalkParams {
  int n, group_size;
  bool particle_groups;  // TargetOrder::Particle: a group is consecutive state indices, not curve positions
  Real theta2, eps2, dt;
  const OctreeKids* kids;
  const WalkNode<Real>* nodes;
  const int* order;
  const int* position;
  int* stacks;
  unsigned long long* counters;  // pp, pn, next work item, overflow
  BodyRange targets;             // kick: the targets of the range
  const int* list;               // accelerations: the targets (state indices), and where they go
  int count;
  double* out;                   // List: 3 a target; Potential: m phi by state index
  double potential_eps2;         // Potential: softening^2 in double
};

__device__ unsigned lanes_below() { return (1u << (threadIdx.x & 31)) - 1u; }

__device__ int inclusive_sum(int v) {
  const int lane = threadIdx.x & 31;
  for (int s = 1; s < 32; s *= 2) {
    const int other = __shfl_up_sync(kAll, v, s);
    if (lane >= s) v += other;
  }
  return v;
}

template <class Real>
__device__ Real warp_min(Real v) {
  for (int s = 16; s > 0; s /= 2) v = min(v, __shfl_xor_sync(kAll, v, s));
  return v;
}
template <class Real>
__device__ Real warp_max(Real v) {
  for (int s = 16; s > 0; s /= 2) v = max(v, __shfl_xor_sync(kAll, v, s));
  return v;
}

// Monopole + quadrupole pull of a node at r = p - com, the CPU reference's formula a = -M r / r^3 + Q r / r^5
// - 5/2 (r.Q.r) r / r^7 regrouped as c r + Q r / r^5 with c = -(M + 5/2 (r.Q.r) / r^4) / r^3, so that each
// component is two FMAs into the sum (35 instructions a pull instead of 41); r^2 softened as the pairs are.
template <class Real>
__device__ void accumulate_node(Vec3T<Real>& acc, Vec3T<Real> p, Vec4T<Real> ce, Vec4T<Real> qa, Vec4T<Real> qb,
                                Real eps2) {
  const Real r[3] = {p.x - ce.x, p.y - ce.y, p.z - ce.z};
  const Real r2 = eps2 + r[0] * r[0] + r[1] * r[1] + r[2] * r[2];  // softening first: three chained FMAs
  const Real inv = reciprocal_sqrt(r2), inv2 = inv * inv, inv3 = inv * inv2, inv5 = inv3 * inv2;
  const Real qr[3] = {qa.x * r[0] + qa.w * r[1] + qb.x * r[2], qa.w * r[0] + qa.y * r[1] + qb.y * r[2],
                      qb.x * r[0] + qb.y * r[1] + qa.z * r[2]};
  const Real rqr = r[0] * qr[0] + r[1] * qr[1] + r[2] * qr[2];
  const Real c = -(qb.z + (rqr * inv2) * (Real(2.5) * inv2)) * inv3;
  acc.x = fma(qr[0], inv5, fma(c, r[0], acc.x));
  acc.y = fma(qr[1], inv5, fma(c, r[1], acc.y));
  acc.z = fma(qr[2], inv5, fma(c, r[2], acc.z));
}

// The same node's potential at p.
template <class Real>
__device__ void accumulate_node(PotentialSum& sum, Vec3T<Real> p, Vec4T<Real> ce, Vec4T<Real> qa,
                                Vec4T<Real> qb, Real) {
  const double r[3] = {double(p.x) - double(ce.x), double(p.y) - double(ce.y), double(p.z) - double(ce.z)};
  const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + sum.eps2;
  const double inv = 1.0 / sqrt(r2), inv2 = inv * inv, inv5 = inv * inv2 * inv2;
  const double rqr = double(qa.x) * r[0] * r[0] + double(qa.y) * r[1] * r[1] + double(qa.z) * r[2] * r[2] +
                     2 * (double(qa.w) * r[0] * r[1] + double(qb.x) * r[0] * r[2] + double(qb.y) * r[1] * r[2]);
  sum.phi -= double(qb.z) * inv + 0.5 * rqr * inv5;
}

// A body's pull on p from curve position `at`; its potential, none from the target itself.
template <class Real>
__device__ void accumulate_body(Vec3T<Real>& acc, Vec3T<Real> p, Vec4T<Real> b, int, Real eps2) {
  accumulate_pair(acc, p, Vec3T<Real>{b.x, b.y, b.z}, b.w, eps2);
}
template <class Real>
__device__ void accumulate_body(PotentialSum& sum, Vec3T<Real> p, Vec4T<Real> b, int at, Real) {
  if (at == sum.self) return;
  const double dx = double(b.x) - double(p.x), dy = double(b.y) - double(p.y), dz = double(b.z) - double(p.z);
  sum.phi -= double(b.w) / sqrt(dx * dx + dy * dy + dz * dz + sum.eps2);
}

// Waiting node j against every target of the lane: one set of shared loads for all of them.
template <int kPerLane, class Real, class Acc>
__device__ void node_pulls(const WarpLists<Real>& lists, int j, const Vec3T<Real> (&p)[kPerLane],
                           Acc (&acc)[kPerLane], Real eps2) {
  const Vec4T<Real> ce = lists.com_extent[j], qa = lists.quad_a[j], qb = lists.quad_b[j];
#pragma unroll
  for (int s = 0; s < kPerLane; ++s) accumulate_node(acc[s], p[s], ce, qa, qb, eps2);
}

// Waiting body j against every target of the lane, likewise (its curve position only for the potential).
template <int kPerLane, class Lists, class Real, class Acc>
__device__ void body_pulls(const Lists& lists, int j, const Vec3T<Real> (&p)[kPerLane], Acc (&acc)[kPerLane],
                           Real eps2) {
  const Vec4T<Real> b = lists.bodies[j];
  int at = 0;
  if constexpr (std::is_same_v<Acc, PotentialSum>) at = lists.body_at[j];
#pragma unroll
  for (int s = 0; s < kPerLane; ++s) accumulate_body(acc[s], p[s], b, at, eps2);
}

// The first `count` waiting nodes against every lane's targets.
template <int kPerLane, class Real, class Acc>
__device__ void flush_nodes(WarpLists<Real>& lists, const WalkParams<Real>& w, int count,
                            const Vec3T<Real> (&p)[kPerLane], Acc (&acc)[kPerLane]) {
  const int lane = threadIdx.x & 31;
  if (lane < count) {
    const WalkNode<Real>& node = w.nodes[lists.nodes[lane]];
    lists.com_extent[lane] = load_vec4(&node.com_extent);
    lists.quad_a[lane] = load_vec4(&node.quad_a);
    lists.quad_b[lane] = load_vec4(&node.quad_b);
  }
  __syncwarp();
  if (count == 32) {  // the usual case: a constant trip count the compiler unrolls
#pragma unroll 8
    for (int j = 0; j < 32; ++j) node_pulls(lists, j, p, acc, w.eps2);
  } else {
    for (int j = 0; j < count; ++j) node_pulls(lists, j, p, acc, w.eps2);
  }
  __syncwarp();
}

// Waiting bodies with ordinals [first, first + count), count <= 32, against every lane's target; the loads
// are the sorted copy's, in the state's layout.
template <int kPerLane, class Src, class Lists, class Real, class Acc>
__device__ void flush_bodies(Lists& lists, int ranges, const Src& sources, Real eps2, int first, int count,
                             const Vec3T<Real> (&p)[kPerLane], Acc (&acc)[kPerLane]) {
  const int lane = threadIdx.x & 31;
  if (lane < count) {
    const int ordinal = first + lane;
    int lo = 0, hi = ranges - 1;  // the last range starting at or before the ordinal
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (lists.range_start[mid] <= ordinal) lo = mid;
      else hi = mid - 1;
    }
    const int at = lists.range_first[lo] + ordinal - lists.range_start[lo];
    lists.bodies[lane] = sources.position_mass(at);
    if constexpr (std::is_same_v<Acc, PotentialSum>) lists.body_at[lane] = at;
  }
  __syncwarp();
  if (count == 32) {
#pragma unroll 8
    for (int j = 0; j < 32; ++j) body_pulls(lists, j, p, acc, eps2);
  } else {
    for (int j = 0; j < count; ++j) body_pulls(lists, j, p, acc, eps2);
  }
  __syncwarp();
}

// Drops the bodies before ordinal `done` from the range list; returns the ranges left.
template <class Real>
__device__ int drop_bodies(WarpLists<Real>& lists, int ranges, int done) {
  const int lane = threadIdx.x & 31;
  int first[2], count[2], start[2];
  bool keep[2];
  int gone = 0;
  for (int h = 0; h < 2; ++h) {
    const int j = lane + 32 * h;
    keep[h] = false;
    if (j < ranges) {
      const int skip = max(0, done - lists.range_start[j]);
      first[h] = lists.range_first[j] + skip;
      count[h] = lists.range_count[j] - skip;
      start[h] = max(lists.range_start[j], done) - done;
      keep[h] = count[h] > 0;
    }
    gone += __popc(__ballot_sync(kAll, j < ranges && !keep[h]));  // the consumed ranges are a prefix
  }
  __syncwarp();
  for (int h = 0; h < 2; ++h) {
    const int j = lane + 32 * h - gone;
    if (keep[h]) {
      lists.range_first[j] = first[h];
      lists.range_count[j] = count[h];
      lists.range_start[j] = start[h];
    }
  }
  __syncwarp();
  return ranges - gone;
}

struct GroupCounts {
  int bodies = 0, nodes = 0;
};

// The acceleration (or potential) of each of the lane's targets p from the walk of the group whose box is
// [lo, hi].
template <int kPerLane, class Src, class Lists, class Real, class Acc>
__device__ GroupCounts walk_group(Lists& lists, const WalkParams<Real>& w, const Src& sources, int* stack,
                                  Vec3T<Real> lo, Vec3T<Real> hi, const Vec3T<Real> (&p)[kPerLane],
                                  Acc (&acc)[kPerLane]) {
  const int lane = threadIdx.x & 31;
  GroupCounts counts;
  int depth = 1, waiting_nodes = 0, ranges = 0, waiting_bodies = 0;
  if (lane == 0) stack[0] = kRootNode;
  __syncwarp();
  while (depth > 0) {
    const int take = min(32, depth);
    const int node = lane < take ? stack[depth - take + lane] : -1;
    depth -= take;
    __syncwarp();
    bool accept = false, opened_leaf = false;
    int first = 0, bodies = 0, children = 0;
    int kids[8];
    if (node >= 0) {
      const Vec4T<Real> ce = load_vec4(&w.nodes[node].com_extent);
      // The distance from the centre of mass to the nearest point of the group's box.
      const Real gx = max(max(lo.x - ce.x, ce.x - hi.x), Real(0));
      const Real gy = max(max(lo.y - ce.y, ce.y - hi.y), Real(0));
      const Real gz = max(max(lo.z - ce.z, ce.z - hi.z), Real(0));
      accept = w.theta2 > 0 && ce.w * ce.w < w.theta2 * (gx * gx + gy * gy + gz * gz);
      if (!accept) {
        if (node >= w.n - 1) {
          opened_leaf = true;
          first = node - (w.n - 1);
          bodies = 1;
        } else {
          const int4* from = reinterpret_cast<const int4*>(w.kids + node);
          const int4 a = __ldg(from), b = __ldg(from + 1);
          if (a.x < 0) {  // taken body by body (OctreeKids)
            opened_leaf = true;
            first = ~a.x;
            bodies = a.y;
          } else {
            kids[0] = a.x, kids[1] = a.y, kids[2] = a.z, kids[3] = a.w;
            kids[4] = b.x, kids[5] = b.y, kids[6] = b.z, kids[7] = b.w;
            children = 2 + (a.z >= 0) + (a.w >= 0) + (b.x >= 0) + (b.y >= 0) + (b.z >= 0) + (b.w >= 0);
          }
        }
      }
    }
    const unsigned accepted = __ballot_sync(kAll, accept);
    if (accept) lists.nodes[waiting_nodes + __popc(accepted & lanes_below())] = node;
    waiting_nodes += __popc(accepted);
    const unsigned leaves = __ballot_sync(kAll, opened_leaf);
    const int body_end = inclusive_sum(bodies);
    if (opened_leaf) {
      const int at = ranges + __popc(leaves & lanes_below());
      lists.range_first[at] = first;
      lists.range_count[at] = bodies;
      lists.range_start[at] = waiting_bodies + body_end - bodies;
    }
    ranges += __popc(leaves);
    waiting_bodies += __shfl_sync(kAll, body_end, 31);
    const int child_end = inclusive_sum(children);
    const int pushed = __shfl_sync(kAll, child_end, 31);
    if (depth + pushed > kStackCapacity) {
      if (lane == 0) atomicAdd(w.counters + 3, 1ull);  // never expected: see kStackCapacity
    } else {
#pragma unroll
      for (int c = 0; c < 8; ++c)  // unrolled: kids stays in registers
        if (c < children) stack[depth + child_end - children + c] = kids[c];
      depth += pushed;
    }
    __syncwarp();
    if (waiting_nodes >= 32) {
      flush_nodes(lists, w, 32, p, acc);
      waiting_nodes -= 32;
      const int rest = lane < waiting_nodes ? lists.nodes[32 + lane] : 0;
      __syncwarp();
      if (lane < waiting_nodes) lists.nodes[lane] = rest;
      __syncwarp();
      counts.nodes += 32;
    }
    if (waiting_bodies >= 32) {
      int done = 0;
      for (; waiting_bodies - done >= 32; done += 32)
        flush_bodies(lists, ranges, sources, w.eps2, done, 32, p, acc);
      ranges = drop_bodies(lists, ranges, done);
      waiting_bodies -= done;
      counts.bodies += done;
    }
  }
  if (waiting_nodes > 0) flush_nodes(lists, w, waiting_nodes, p, acc);
  if (waiting_bodies > 0) flush_bodies(lists, ranges, sources, w.eps2, 0, waiting_bodies, p, acc);
  counts.nodes += waiting_nodes;
  counts.bodies += waiting_bodies;
  return counts;
}

// Persistent warps take work items (groups for a kick or the potential, targets for accelerations) from a
// counter; each item's result depends only on its group, so which warp takes it does not matter. Src: the
// sorted copy in curve order (SourceFor<View>) or shuffled (ShuffledSource), chosen at compile time so the
// default walk's code is unchanged. kPerLane: the targets each lane holds, 1 for groups of up to 32, 2 for 64.
template <class View, class Src, WalkMode kMode, int kPerLane>
__global__ void __launch_bounds__(kThreads, kMinBlocks<typename View::Scalar, kPerLane>)
    walk_kernel(View view, Src sources, WalkParams<typename View::Scalar> w, int items) {
  using Real = typename View::Scalar;
  constexpr bool kList = kMode == WalkMode::List;
  constexpr bool kPotential = kMode == WalkMode::Potential;
  using Lists = std::conditional_t<kPotential, PotentialLists<Real>, WarpLists<Real>>;
  using Acc = std::conditional_t<kPotential, PotentialSum, Vec3T<Real>>;
  __shared__ Lists all_lists[kWarps];
  const int lane = threadIdx.x & 31;
  const int warp = static_cast<int>(threadIdx.x) / 32;
  Lists& lists = all_lists[warp];
  int* stack = w.stacks + static_cast<long long>(blockIdx.x * kWarps + warp) * kStackCapacity;
  unsigned long long pairs = 0, pulls = 0;
  for (;;) {
    int item = 0;
    if (lane == 0) item = static_cast<int>(atomicAdd(w.counters + 2, 1ull));
    item = __shfl_sync(kAll, item, 0);
    if (item >= items) break;
    int group = item, target_member = -1;
    if constexpr (kList) {
      const int target = w.list[item];
      const int at = w.particle_groups ? target : w.position[target];
      group = at / w.group_size;
      target_member = at - group * w.group_size;
    }
    const int first = group * w.group_size;
    const int members = min(w.group_size, w.n - first);
    Vec3T<Real> p[kPerLane];
    Acc acc[kPerLane];
    Real mass[kPerLane];  // the potential's weights
    int body[kPerLane];
    bool wanted[kPerLane];
    int wanted_count = 0;
#pragma unroll
    for (int s = 0; s < kPerLane; ++s) {
      const int member = lane + 32 * s;
      const int k = first + (member < members ? member : 0);  // idle slots repeat the first target
      body[s] = k;
      if (w.particle_groups) {  // uniform: the state's own order, the same values as the copy's
        if constexpr (kPotential) {
          const Vec4T<Real> pm = view.position_mass(k);
          p[s] = Vec3T<Real>{pm.x, pm.y, pm.z};
          mass[s] = pm.w;
        } else {
          p[s] = view.position(k);
        }
      } else {
        const Vec4T<Real> pm = sources.position_mass(k);
        p[s] = Vec3T<Real>{pm.x, pm.y, pm.z};
        mass[s] = pm.w;
        body[s] = w.order[k];
      }
      if constexpr (kPotential) {
        acc[s] = PotentialSum{0.0, w.potential_eps2, w.particle_groups ? w.position[k] : k};
        wanted[s] = member < members;
      } else {
        acc[s] = Acc{0, 0, 0};
        wanted[s] = member < members && body[s] >= w.targets.begin && body[s] < w.targets.end;
      }
      wanted_count += __popc(__ballot_sync(kAll, wanted[s]));
    }
    if (kMode == WalkMode::Kick && wanted_count == 0) continue;
    Vec3T<Real> lo = p[0], hi = p[0];
#pragma unroll
    for (int s = 1; s < kPerLane; ++s) {
      lo = Vec3T<Real>{min(lo.x, p[s].x), min(lo.y, p[s].y), min(lo.z, p[s].z)};
      hi = Vec3T<Real>{max(hi.x, p[s].x), max(hi.y, p[s].y), max(hi.z, p[s].z)};
    }
    lo = Vec3T<Real>{warp_min(lo.x), warp_min(lo.y), warp_min(lo.z)};
    hi = Vec3T<Real>{warp_max(hi.x), warp_max(hi.y), warp_max(hi.z)};
    const GroupCounts counts = walk_group(lists, w, sources, stack, lo, hi, p, acc);
    if constexpr (kPotential) {
#pragma unroll
      for (int s = 0; s < kPerLane; ++s)
        if (wanted[s]) w.out[body[s]] = double(mass[s]) * acc[s].phi;
    } else if constexpr (kList) {
      if (lane == target_member % 32) {
        const Vec3T<Real> a = target_member < 32 ? acc[0] : acc[kPerLane - 1];  // no local-memory index
        w.out[3LL * item] = double(a.x);
        w.out[3LL * item + 1] = double(a.y);
        w.out[3LL * item + 2] = double(a.z);
      }
    } else {
#pragma unroll
      for (int s = 0; s < kPerLane; ++s)
        if (wanted[s]) view.set_velocity(body[s], kick(view.velocity(body[s]), acc[s], w.dt));
      pairs += static_cast<unsigned long long>(counts.bodies) * wanted_count;
      pulls += static_cast<unsigned long long>(counts.nodes) * wanted_count;
    }
  }
  if (kMode == WalkMode::Kick && lane == 0) {  // one atomic per warp and count
    if (pairs) atomicAdd(w.counters, pairs);
    if (pulls) atomicAdd(w.counters + 1, pulls);
  }
}

// The walk of one mode with one target a lane or two (groups of 64).
template <class View, class Src, WalkMode kMode>
auto per_lane_kernel(bool two_per_lane) {
  return two_per_lane ? walk_kernel<View, Src, kMode, 2> : walk_kernel<View, Src, kMode, 1>;
}

// The kernel of a mode; the potential is walked over the curve-order copy alone (GpuTree::walk), so its
// shuffled variants are never built.
template <class View, class Src>
auto pick_kernel(WalkMode mode, bool two_per_lane) {
  if constexpr (std::is_same_v<Src, SourceFor<View>>)
    if (mode == WalkMode::Potential) return per_lane_kernel<View, Src, WalkMode::Potential>(two_per_lane);
  return mode == WalkMode::List ? per_lane_kernel<View, Src, WalkMode::List>(two_per_lane)
                                : per_lane_kernel<View, Src, WalkMode::Kick>(two_per_lane);
}

template <class Kernel>
int resident_blocks(Kernel kernel) {
  int device = 0, sms = 0, per_sm = 0;
  COALESCE_CUDA_CHECK(cudaGetDevice(&device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  COALESCE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, 0));
  return std::max(1, sms * per_sm);
}

}  // namespace

void GpuTree::walk(WalkMode mode, const StateViews& state, BodyRange targets, const int* list, int count,
                   double* out, const SimParams& params, cudaStream_t stream) {
  check_state(state);
  const bool kick = mode == WalkMode::Kick;
  unsigned long long* counters = m_counters.data() + (kick ? 0 : 4);  // a kick's counts stay for last_counts
  COALESCE_CUDA_CHECK(cudaMemsetAsync(counters, 0, 4 * sizeof(unsigned long long), stream));
  if (kick) {
    m_walk_start.record(stream);
    m_last_kick_stream = stream;
    m_kicked = true;
  }
  const int groups = (m_n + m_settings.group_size - 1) / m_settings.group_size;
  const int items = mode == WalkMode::List ? count : groups;
  if (m_n > 0 && items > 0) {
    with_view(state, [&](const auto& view) {
      using View = std::decay_t<decltype(view)>;
      using Real = typename View::Scalar;
      WalkParams<Real> w{};
      w.n = m_n;
      w.group_size = m_settings.group_size;
      w.particle_groups = m_settings.target_order == TargetOrder::Particle;
      w.theta2 = static_cast<Real>(m_settings.theta * m_settings.theta);
      w.eps2 = softening_squared<Real>(params);
      w.dt = time_step<Real>(params);
      w.kids = m_kids.data();
      w.nodes = reinterpret_cast<const WalkNode<Real>*>(m_walk_nodes.data());
      w.order = m_order.data();
      w.position = m_position.data();
      w.counters = counters;
      w.targets = targets;
      w.list = list;
      w.count = count;
      w.out = out;
      w.potential_eps2 = params.softening * params.softening;  // as the exact potential's (sim/diagnostics.h)
      const auto run = [&](const auto& sources) {
        using Src = std::decay_t<decltype(sources)>;
        const auto kernel = pick_kernel<View, Src>(mode, m_settings.group_size > 32);
        const int blocks = std::min(resident_blocks(kernel), (items + kWarps - 1) / kWarps);
        const std::size_t stack_ints = static_cast<std::size_t>(blocks) * kWarps * kStackCapacity;
        if (m_stacks.size() < stack_ints) m_stacks = DeviceBuffer<int>(stack_ints);
        w.stacks = m_stacks.data();
        launch(kernel, LaunchGrid{static_cast<unsigned>(blocks), kThreads}, stream, view, sources, w, items);
      };
      const SourceFor<View> curve = SourceFor<View>::over(m_sources.data(), m_n);
      // Shuffled sources give the same bits (kernels/tree.h), so the potential reads the curve order.
      if (m_settings.source_order == SourceOrder::Shuffled && mode != WalkMode::Potential)
        run(ShuffledSource<SourceFor<View>>{curve, m_slot.data()});
      else
        run(curve);
    });
  }
  if (kick) m_walk_end.record(stream);
}

void GpuTree::kick(const StateViews& state, BodyRange targets, const SimParams& params, cudaStream_t stream) {
  if (targets.begin < 0 || targets.end > state.n || targets.begin > targets.end)
    throw std::invalid_argument("GpuTree::kick: the targets are not within the state's bodies");
  walk(WalkMode::Kick, state, targets, nullptr, 0, nullptr, params, stream);
}

void GpuTree::accelerations(const StateViews& state, const int* targets, int count, double* out,
                            const SimParams& params, cudaStream_t stream) {
  walk(WalkMode::List, state, BodyRange{0, state.n}, targets, count, out, params, stream);
}

}  // namespace coalesce::gpu
