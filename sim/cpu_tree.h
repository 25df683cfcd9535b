// A Barnes-Hut octree on the CPU, the reference of the tree method (issue 32): a private copy of the sources
// sorted along the Morton curve of their bounding cube (the state's own order never changes), monopole and
// quadrupole moments about each node's centre of mass, and a walk by groups of targets that are consecutive
// on the curve and share one interaction list.
//
// Every target's sum depends only on the tree and on its group, and groups are fixed runs of the curve, so a
// rank that computes a slice of the targets gets the whole step's bits for them, whatever the thread count.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "sim/body_span.h"
#include "sim/common.h"
#include "sim/cpu_simd.h"
#include "sim/thread_pool.h"
#include "sim/tree_settings.h"

namespace coalesce {

template <class Real>
class CpuTree {
 public:
  // The sources' {x, y, z, m} for bodies 0 .. n-1, as source(i) returns them (Vec4T<Real>).
  // `pool`: the build's threads (null: this one); the tree is the same on any count.
  template <class Source>
  void build(const Source& source, int n, const TreeSettings& settings, ThreadPool* pool = nullptr);

  // sink(i, acceleration) for every target i in `targets` (state order) whose position is position(i)
  // (Vec3T<Real>), eps2 the squared softening; the pool's threads each take whole groups. `simd`: a group's
  // (at most kSimdBlock targets) body-body pulls through the vector block loop and its body-node pulls
  // through the vector node loop, in Real; null: the scalar reference loops.
  template <class Position, class Sink>
  TreeCounts accelerations(ThreadPool& pool, const Position& position, BodyRange targets, Real eps2,
                           const Sink& sink, const SimdKernelsT<Real>* simd = nullptr) const;
  // The same walk for chosen targets (state indices, each once): the error check's sample.
  template <class Position, class Sink>
  TreeCounts accelerations_of(ThreadPool& pool, const Position& position, const std::vector<int>& targets,
                              Real eps2, const Sink& sink, const SimdKernelsT<Real>* simd = nullptr) const;

  // W = 1/2 sum_i m_i phi_i over every body, phi_i from the same interaction lists as the forces (the
  // bodies of opened leaves one by one, the self pair skipped; taken nodes' monopole and quadrupole),
  // in double with eps2 as the exact potential's; a fixed order of sums, so the same bits on any pool.
  double potential_energy(ThreadPool& pool, double eps2) const;

  int node_count() const { return static_cast<int>(m_nodes.size()); }
  int body_count() const { return static_cast<int>(m_order.size()); }
  // The body at curve position k (for tests: the curve is a permutation of the state).
  int body_at(int k) const { return m_order[static_cast<std::size_t>(k)]; }

 private:
  // What the walk reads of a node to open it or take it whole; the moments sit apart (m_moments,
  // m_multipoles), so the tree's descent touches 48 bytes a node.
  struct Node {
    int first = 0, count = 0;               // the bodies [first, first + count) of the curve
    int child_first = -1, child_count = 0;  // children are contiguous in m_nodes; -1: a leaf
    std::array<double, 3> com{};
    double open2 = 0;  // a group's box farther than sqrt(open2) from com takes the node whole; inf: never
  };
  struct Moments {
    double mass = 0;
    std::array<double, 6> quad{};  // traceless: xx, yy, zz, xy, xz, yz of sum m (3 d d - |d|^2 I)
  };
  struct Group {
    int first = 0, count = 0;  // curve positions
    std::array<double, 3> lo{}, hi{};
  };
  // A run of bodies taken one by one: an opened leaf's, contiguous on the curve.
  struct Run {
    int first = 0, count = 0;
  };
  // One thread's interaction list and staging, kept across its groups: the list is nodes[0, taken) and
  // runs[0, opened), the buffers as long as the most they take.
  struct Scratch {
    std::vector<int> stack, nodes;
    std::vector<Run> runs;
    int taken = 0, opened = 0;
    int bodies = 0;          // in the runs, summed
    std::vector<Real> rows;  // the vector pair loop's sources: x | y | z | m, the runs' bodies long
  };

  // The groups holding any of `targets` (state indices), in curve order.
  std::vector<int> groups_holding(const std::vector<int>& targets) const;
  // The walk of `groups` (in curve order), sinking the bodies for which wanted(i) holds.
  template <class Position, class Wanted, class Sink>
  TreeCounts walk(ThreadPool& pool, const Position& position, const std::vector<int>& groups,
                  const Wanted& wanted, Real eps2, const Sink& sink, const SimdKernelsT<Real>* simd) const;
  void build_nodes(int leaf_size);
  void upsweep(ThreadPool* pool);
  // Node id's moments, centre of mass and opening distance, its children's done.
  void sweep_node(std::size_t id);
  // The interaction list of `group` into scratch: runs of bodies, nodes taken whole.
  void interaction_list(const Group& group, Scratch& scratch) const;

  TreeSettings m_settings;
  std::vector<std::uint64_t> m_keys;     // sorted Morton keys, 21 bits an axis
  std::vector<int> m_order;              // curve position -> body
  std::vector<int> m_position;           // body -> curve position
  std::vector<Real> m_x, m_y, m_z, m_m;  // the sorted copy of the sources
  std::vector<Node> m_nodes;             // the root first, children after their parent
  std::vector<int> m_level_first;        // the first node of each level: breadth-first, levels are runs
  std::vector<Moments> m_moments;        // by node, in double: the scalar loop's
  std::vector<Real> m_multipoles;        // by node, kMultipoleFields each in Real: the vector loop's
  Real m_reach = 0;                      // the largest |coordinate| of a body, so of a centre of mass too
  std::vector<Group> m_groups;           // runs of group_size along the curve
  std::vector<int> m_group_of;           // curve position -> group
};

}  // namespace coalesce

#include "sim/cpu_tree_impl.h"
#include "sim/cpu_tree_potential.h"
#include "sim/cpu_tree_walk.h"
