// CpuTree's templates (sim/cpu_tree.h). Moments are accumulated in double whatever the state's precision:
// the reference's error is the opening angle's, not the upsweep's rounding.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "sim/morton.h"

namespace coalesce {
namespace tree_detail {

// The octant of `key` below level `level` (0: the root's children).
inline int octant(std::uint64_t key, int level) {
  return static_cast<int>((key >> (3 * (kMortonLevels - 1 - level))) & 7);
}

}  // namespace tree_detail

template <class Real>
template <class Source>
void CpuTree<Real>::build(const Source& source, int n, const TreeSettings& settings) {
  using namespace tree_detail;
  m_settings = settings;
  const auto count = static_cast<std::size_t>(n);
  std::vector<Vec4T<Real>> bodies(count);
  std::array<double, 3> lo{}, hi{};
  lo.fill(std::numeric_limits<double>::infinity());
  hi.fill(-std::numeric_limits<double>::infinity());
  for (std::size_t i = 0; i < count; ++i) {
    bodies[i] = source(static_cast<int>(i));
    const double p[3] = {bodies[i].x, bodies[i].y, bodies[i].z};
    for (int a = 0; a < 3; ++a) {
      lo[static_cast<std::size_t>(a)] = std::min(lo[static_cast<std::size_t>(a)], p[a]);
      hi[static_cast<std::size_t>(a)] = std::max(hi[static_cast<std::size_t>(a)], p[a]);
    }
  }
  const double size = morton_cube_size(lo.data(), hi.data());
  std::vector<std::pair<std::uint64_t, int>> keyed(count);
  for (std::size_t i = 0; i < count; ++i)
    keyed[i] = {morton_key(bodies[i].x, bodies[i].y, bodies[i].z, lo.data(), size), static_cast<int>(i)};
  std::sort(keyed.begin(), keyed.end());  // ties by index: the same curve for the same state
  m_keys.resize(count);
  m_order.resize(count);
  m_position.resize(count);
  m_x.resize(count);
  m_y.resize(count);
  m_z.resize(count);
  m_m.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    const int i = keyed[k].second;
    m_keys[k] = keyed[k].first;
    m_order[k] = i;
    m_position[static_cast<std::size_t>(i)] = static_cast<int>(k);
    const Vec4T<Real>& b = bodies[static_cast<std::size_t>(i)];
    m_x[k] = b.x;
    m_y[k] = b.y;
    m_z[k] = b.z;
    m_m[k] = b.w;
  }
  build_nodes(std::max(1, settings.leaf_size));
  upsweep();
  // Groups: fixed runs of the curve with their bounding boxes, whatever targets a walk is asked for.
  const int size_of_group = std::max(1, settings.group_size);
  m_groups.clear();
  m_group_of.resize(count);
  for (int first = 0; first < n; first += size_of_group) {
    Group g;
    g.first = first;
    g.count = std::min(size_of_group, n - first);
    g.lo = {m_x[static_cast<std::size_t>(first)], m_y[static_cast<std::size_t>(first)],
            m_z[static_cast<std::size_t>(first)]};
    g.hi = g.lo;
    for (int k = first; k < first + g.count; ++k) {
      const auto at = static_cast<std::size_t>(k);
      const double p[3] = {m_x[at], m_y[at], m_z[at]};
      for (std::size_t a = 0; a < 3; ++a) {
        g.lo[a] = std::min(g.lo[a], p[a]);
        g.hi[a] = std::max(g.hi[a], p[a]);
      }
      m_group_of[at] = static_cast<int>(m_groups.size());
    }
    m_groups.push_back(g);
  }
}

// Nodes in breadth-first order: a node's children are made together, after it, so the upsweep can run
// from the last node to the first.
template <class Real>
void CpuTree<Real>::build_nodes(int leaf_size) {
  using namespace tree_detail;
  m_nodes.clear();
  if (m_order.empty()) return;
  struct Pending {
    int node, level;
  };
  m_nodes.push_back(Node{0, static_cast<int>(m_order.size())});
  std::vector<Pending> queue{{0, 0}};
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const Pending p = queue[q];
    const Node node = m_nodes[static_cast<std::size_t>(p.node)];
    if (node.count <= leaf_size || p.level >= kMortonLevels) continue;  // a leaf
    const int child_first = static_cast<int>(m_nodes.size());
    int at = node.first;
    const int end = node.first + node.count;
    while (at < end) {
      const int oct = octant(m_keys[static_cast<std::size_t>(at)], p.level);
      int stop = at;
      while (stop < end && octant(m_keys[static_cast<std::size_t>(stop)], p.level) == oct) ++stop;
      m_nodes.push_back(Node{at, stop - at});
      queue.push_back({static_cast<int>(m_nodes.size()) - 1, p.level + 1});
      at = stop;
    }
    Node& parent = m_nodes[static_cast<std::size_t>(p.node)];
    parent.child_first = child_first;
    parent.child_count = static_cast<int>(m_nodes.size()) - child_first;
  }
}

template <class Real>
void CpuTree<Real>::upsweep() {
  for (std::size_t id = m_nodes.size(); id-- > 0;) {
    Node& node = m_nodes[id];
    node.mass = 0;
    std::array<double, 3> weighted{};
    if (node.child_first < 0) {
      for (int k = node.first; k < node.first + node.count; ++k) {
        const auto at = static_cast<std::size_t>(k);
        const double m = m_m[at];
        node.mass += m;
        weighted[0] += m * m_x[at];
        weighted[1] += m * m_y[at];
        weighted[2] += m * m_z[at];
      }
    } else {
      for (int c = node.child_first; c < node.child_first + node.child_count; ++c) {
        const Node& child = m_nodes[static_cast<std::size_t>(c)];
        node.mass += child.mass;
        for (std::size_t a = 0; a < 3; ++a) weighted[a] += child.mass * child.com[a];
      }
    }
    // Massless nodes (zero-mass bodies) keep their geometric centre: the first body's position.
    const auto first = static_cast<std::size_t>(node.first);
    for (std::size_t a = 0; a < 3; ++a)
      node.com[a] = node.mass > 0 ? weighted[a] / node.mass
                                  : (a == 0   ? m_x[first]
                                     : a == 1 ? m_y[first]
                                              : m_z[first]);
    // Quadrupole about the centre of mass, and the extent, from the bodies (exact, and O(N) per level).
    node.quad.fill(0.0);
    node.extent = 0;
    for (int k = node.first; k < node.first + node.count; ++k) {
      const auto at = static_cast<std::size_t>(k);
      const double d[3] = {m_x[at] - node.com[0], m_y[at] - node.com[1], m_z[at] - node.com[2]};
      const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
      const double m = m_m[at];
      node.quad[0] += m * (3 * d[0] * d[0] - d2);
      node.quad[1] += m * (3 * d[1] * d[1] - d2);
      node.quad[2] += m * (3 * d[2] * d[2] - d2);
      node.quad[3] += m * 3 * d[0] * d[1];
      node.quad[4] += m * 3 * d[0] * d[2];
      node.quad[5] += m * 3 * d[1] * d[2];
      node.extent = std::max(node.extent, std::sqrt(d2));
    }
  }
}

template <class Real>
void CpuTree<Real>::interaction_list(const Group& group, std::vector<int>& bodies,
                                     std::vector<int>& nodes) const {
  bodies.clear();
  nodes.clear();
  if (m_nodes.empty()) return;
  const double theta = m_settings.theta;
  std::vector<int> stack{0};
  while (!stack.empty()) {
    const Node& node = m_nodes[static_cast<std::size_t>(stack.back())];
    const int id = stack.back();
    stack.pop_back();
    // The distance from the centre of mass to the nearest point of the group's box.
    double d2 = 0;
    for (std::size_t a = 0; a < 3; ++a) {
      const double below = group.lo[a] - node.com[a], above = node.com[a] - group.hi[a];
      const double gap = std::max({below, above, 0.0});
      d2 += gap * gap;
    }
    if (theta > 0 && node.extent * node.extent < theta * theta * d2) {
      nodes.push_back(id);
    } else if (node.child_first < 0) {
      for (int k = node.first; k < node.first + node.count; ++k) bodies.push_back(k);
    } else {
      // Children pushed last-first, so they are taken in curve order: a fixed order of the sums.
      for (int c = node.child_first + node.child_count - 1; c >= node.child_first; --c) stack.push_back(c);
    }
  }
}

template <class Real>
bool CpuTree<Real>::stage_multipoles(const std::vector<int>& nodes, Real target_reach,
                                     std::vector<Real>& rows) const {
  const std::size_t c = nodes.size();
  rows.resize(10 * c);
  double reach = 0;
  for (std::size_t j = 0; j < c; ++j) {
    const Node& node = m_nodes[static_cast<std::size_t>(nodes[j])];
    for (std::size_t a = 0; a < 3; ++a) {
      rows[a * c + j] = static_cast<Real>(node.com[a]);
      reach = std::max(reach, std::fabs(node.com[a]));
    }
    rows[3 * c + j] = static_cast<Real>(node.mass);
    for (std::size_t q = 0; q < 6; ++q) rows[(4 + q) * c + j] = static_cast<Real>(node.quad[q]);
  }
  return reach + static_cast<double>(target_reach) <= kSimdNearReach;
}

template <class Real>
template <class Position, class Sink>
TreeCounts CpuTree<Real>::accelerations(ThreadPool& pool, const Position& position, BodyRange targets,
                                        Real eps2, const Sink& sink, const SimdKernelsT<Real>* simd) const {
  std::vector<int> range;
  for (int i = targets.begin; i < targets.end; ++i) range.push_back(i);
  return walk(
      pool, position, groups_holding(range), [&](int i) { return i >= targets.begin && i < targets.end; }, eps2,
      sink, simd);
}

template <class Real>
template <class Position, class Sink>
TreeCounts CpuTree<Real>::accelerations_of(ThreadPool& pool, const Position& position,
                                           const std::vector<int>& targets, Real eps2, const Sink& sink,
                                           const SimdKernelsT<Real>* simd) const {
  std::vector<char> chosen(m_order.size(), 0);
  for (int i : targets) chosen[static_cast<std::size_t>(i)] = 1;
  return walk(
      pool, position, groups_holding(targets), [&](int i) { return chosen[static_cast<std::size_t>(i)] != 0; },
      eps2, sink, simd);
}

template <class Real>
std::vector<int> CpuTree<Real>::groups_holding(const std::vector<int>& targets) const {
  std::vector<char> holds(m_groups.size(), 0);
  for (int i : targets)
    holds[static_cast<std::size_t>(m_group_of[static_cast<std::size_t>(m_position[static_cast<std::size_t>(i)])])] =
        1;
  std::vector<int> groups;
  for (std::size_t g = 0; g < holds.size(); ++g)
    if (holds[g]) groups.push_back(static_cast<int>(g));
  return groups;
}

template <class Real>
template <class Position, class Wanted, class Sink>
TreeCounts CpuTree<Real>::walk(ThreadPool& pool, const Position& position, const std::vector<int>& groups,
                               const Wanted& wanted, Real eps2, const Sink& sink,
                               const SimdKernelsT<Real>* simd) const {
  std::vector<TreeCounts> counts(groups.size());
  const double soft = static_cast<double>(eps2);
  const bool vector_pairs = simd != nullptr && m_settings.group_size <= kSimdBlock;
  pool.parallel_for(static_cast<int>(groups.size()), [&](int g0, int g1) {
    std::vector<int> bodies, nodes;
    struct alignas(64) Block {
      Real v[kSimdBlock];
    };
    std::vector<Block> rows;  // the vector loop's sources: x | y | z | m, each padded to whole blocks
    std::vector<Real> multipoles;  // the vector node loop's: x | y | z | m | 6 quadrupole rows, nodes long
    alignas(64) Real tx[kSimdBlock], ty[kSimdBlock], tz[kSimdBlock], bx[kSimdBlock], by[kSimdBlock],
        bz[kSimdBlock];
    for (int gi = g0; gi < g1; ++gi) {
      const Group& group = m_groups[static_cast<std::size_t>(groups[static_cast<std::size_t>(gi)])];
      interaction_list(group, bodies, nodes);
      bool vector_nodes = false;
      if (vector_pairs) {
        // Every target of the group (a fixed run of the curve), whatever the range: a slice's bits are the
        // whole's. Unused lanes repeat the group's last target; their sums are dropped.
        Real target_reach = 0;
        for (int k = 0; k < kSimdBlock; ++k) {
          const Vec3T<Real> p =
              position(m_order[static_cast<std::size_t>(group.first + std::min(k, group.count - 1))]);
          tx[k] = p.x;
          ty[k] = p.y;
          tz[k] = p.z;
          target_reach = std::max({target_reach, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
        }
        const std::size_t blocks = (bodies.size() + kSimdBlock - 1) / kSimdBlock;
        rows.assign(4 * std::max<std::size_t>(blocks, 1), Block{});
        Real* const x = rows[0].v;
        Real *const y = x + blocks * kSimdBlock, *const z = y + blocks * kSimdBlock,
                    *const m = z + blocks * kSimdBlock;
        Real reach = 0;
        for (std::size_t j = 0; j < bodies.size(); ++j) {
          const auto at = static_cast<std::size_t>(bodies[j]);
          x[j] = m_x[at];
          y[j] = m_y[at];
          z[j] = m_z[at];
          m[j] = m_m[at];
          reach = std::max({reach, std::fabs(x[j]), std::fabs(y[j]), std::fabs(z[j])});
        }
        simd->block_accelerations(tx, ty, tz, group.count,
                                  {x, y, z, m, static_cast<int>(bodies.size()), reach}, eps2, bx, by, bz);
        vector_nodes = stage_multipoles(nodes, target_reach, multipoles);
        if (vector_nodes) {
          const std::size_t c = nodes.size();
          const Real* const row = multipoles.data();
          simd->node_accelerations(
              tx, ty, tz, group.count,
              {row,
               row + c,
               row + 2 * c,
               row + 3 * c,
               {row + 4 * c, row + 5 * c, row + 6 * c, row + 7 * c, row + 8 * c, row + 9 * c},
               static_cast<int>(c)},
              eps2, bx, by, bz);
        }
      }
      for (int k = group.first; k < group.first + group.count; ++k) {
        const int i = m_order[static_cast<std::size_t>(k)];
        if (!wanted(i)) continue;
        const Vec3T<Real> p = position(i);
        Real ax = 0, ay = 0, az = 0;
        if (vector_pairs) {
          ax = bx[k - group.first];
          ay = by[k - group.first];
          az = bz[k - group.first];
        } else {
          // Body-body pulls in the state's precision, as all-pairs computes them (the self term is 0).
          for (int b : bodies) {
            const auto at = static_cast<std::size_t>(b);
            const Real dx = m_x[at] - p.x, dy = m_y[at] - p.y, dz = m_z[at] - p.z;
            const Real r2 = dx * dx + dy * dy + dz * dz + eps2;
            const Real s = m_m[at] / (r2 * std::sqrt(r2));
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
          }
        }
        // Body-node pulls: monopole and quadrupole, a = -M r / r^3 + Q r / r^5 - 5/2 (r.Q.r) r / r^7 with
        // r = p - com and r^2 softened as the pairs are; in double, rounded once into the sum.
        if (!vector_nodes)
          for (int id : nodes) {
            const Node& node = m_nodes[static_cast<std::size_t>(id)];
            const double r[3] = {p.x - node.com[0], p.y - node.com[1], p.z - node.com[2]};
            const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + soft;
            const double inv = 1.0 / std::sqrt(r2), inv2 = inv * inv, inv3 = inv * inv2, inv5 = inv3 * inv2;
            const std::array<double, 6>& q = node.quad;
            const double qr[3] = {q[0] * r[0] + q[3] * r[1] + q[4] * r[2],
                                  q[3] * r[0] + q[1] * r[1] + q[5] * r[2],
                                  q[4] * r[0] + q[5] * r[1] + q[2] * r[2]};
            const double rqr = r[0] * qr[0] + r[1] * qr[1] + r[2] * qr[2];
            const double radial = -node.mass * inv3 - 2.5 * rqr * inv5 * inv2;
            ax += static_cast<Real>(radial * r[0] + qr[0] * inv5);
            ay += static_cast<Real>(radial * r[1] + qr[1] * inv5);
            az += static_cast<Real>(radial * r[2] + qr[2] * inv5);
          }
        sink(i, Vec3T<Real>{ax, ay, az});
        counts[static_cast<std::size_t>(gi)].particle_particle += static_cast<double>(bodies.size());
        counts[static_cast<std::size_t>(gi)].particle_node += static_cast<double>(nodes.size());
      }
    }
  });
  TreeCounts total;
  for (const TreeCounts& c : counts) {
    total.particle_particle += c.particle_particle;
    total.particle_node += c.particle_node;
  }
  return total;
}

}  // namespace coalesce
