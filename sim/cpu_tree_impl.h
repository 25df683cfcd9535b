// CpuTree's build (sim/cpu_tree.h; the walk is sim/cpu_tree_walk.h). Moments are accumulated in double
// whatever the state's precision: the reference's error is the opening angle's, not the upsweep's rounding.
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
void CpuTree<Real>::build(const Source& source, int n, const TreeSettings& settings, ThreadPool* pool) {
  using namespace tree_detail;
  m_settings = settings;
  const auto count = static_cast<std::size_t>(n);
  // A fixed split of [0, n) into one chunk a thread: min, max and a sorted merge give the same result on any.
  const int chunks = pool ? pool->thread_count() : 1;
  const auto chunk = [&](int c) {
    return std::pair<std::size_t, std::size_t>{
        count * static_cast<std::size_t>(c) / static_cast<std::size_t>(chunks),
        count * static_cast<std::size_t>(c + 1) / static_cast<std::size_t>(chunks)};
  };
  const auto each_chunk = [&](const auto& fn) {
    const auto run = [&](int c0, int c1) {
      for (int c = c0; c < c1; ++c) fn(c, chunk(c).first, chunk(c).second);
    };
    if (pool)
      pool->parallel_for(chunks, run);
    else
      run(0, chunks);
  };
  std::vector<Vec4T<Real>> bodies(count);
  std::vector<std::array<double, 6>> boxes(static_cast<std::size_t>(chunks));  // lo x, y, z, hi x, y, z
  each_chunk([&](int c, std::size_t i0, std::size_t i1) {
    std::array<double, 6>& box = boxes[static_cast<std::size_t>(c)];
    for (std::size_t a = 0; a < 3; ++a) {
      box[a] = std::numeric_limits<double>::infinity();
      box[3 + a] = -std::numeric_limits<double>::infinity();
    }
    for (std::size_t i = i0; i < i1; ++i) {
      bodies[i] = source(static_cast<int>(i));
      const double p[3] = {bodies[i].x, bodies[i].y, bodies[i].z};
      for (std::size_t a = 0; a < 3; ++a) {
        box[a] = std::min(box[a], p[a]);
        box[3 + a] = std::max(box[3 + a], p[a]);
      }
    }
  });
  std::array<double, 3> lo{}, hi{};
  lo.fill(std::numeric_limits<double>::infinity());
  hi.fill(-std::numeric_limits<double>::infinity());
  for (const auto& box : boxes)
    for (std::size_t a = 0; a < 3; ++a) {
      lo[a] = std::min(lo[a], box[a]);
      hi[a] = std::max(hi[a], box[3 + a]);
    }
  const double size = morton_cube_size(lo.data(), hi.data());
  // Keys sorted a chunk a thread, then the chunks merged: (key, index) pairs are all distinct, so there is
  // one sorted order whatever the split (ties by index: the same curve for the same state).
  std::vector<std::pair<std::uint64_t, int>> keyed(count);
  each_chunk([&](int, std::size_t i0, std::size_t i1) {
    for (std::size_t i = i0; i < i1; ++i)
      keyed[i] = {morton_key(bodies[i].x, bodies[i].y, bodies[i].z, lo.data(), size), static_cast<int>(i)};
    std::sort(keyed.begin() + static_cast<std::ptrdiff_t>(i0),
              keyed.begin() + static_cast<std::ptrdiff_t>(i1));
  });
  for (int width = 1; width < chunks; width *= 2)
    for (int c = 0; c + width < chunks; c += 2 * width)
      std::inplace_merge(
          keyed.begin() + static_cast<std::ptrdiff_t>(chunk(c).first),
          keyed.begin() + static_cast<std::ptrdiff_t>(chunk(c + width).first),
          keyed.begin() + static_cast<std::ptrdiff_t>(chunk(std::min(c + 2 * width, chunks) - 1).second));
  m_keys.resize(count);
  m_order.resize(count);
  m_position.resize(count);
  m_x.resize(count);
  m_y.resize(count);
  m_z.resize(count);
  m_m.resize(count);
  each_chunk([&](int, std::size_t k0, std::size_t k1) {
    for (std::size_t k = k0; k < k1; ++k) {
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
  });
  m_reach = 0;
  for (std::size_t k = 0; k < count; ++k)
    m_reach = std::max({m_reach, std::fabs(m_x[k]), std::fabs(m_y[k]), std::fabs(m_z[k])});
  build_nodes(std::max(1, settings.leaf_size));
  upsweep(pool);
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
  m_level_first.clear();
  if (m_order.empty()) return;
  struct Pending {
    int node, level;
  };
  m_nodes.push_back(Node{0, static_cast<int>(m_order.size())});
  std::vector<Pending> queue{{0, 0}};
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const Pending p = queue[q];
    if (q == 0 || queue[q - 1].level != p.level) m_level_first.push_back(p.node);
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
void CpuTree<Real>::upsweep(ThreadPool* pool) {
  m_moments.assign(m_nodes.size(), Moments{});
  m_multipoles.resize(m_nodes.size() * kMultipoleFields);
  // A level's nodes at once, the deepest first: each reads only its children (the next level) and its bodies.
  for (std::size_t level = m_level_first.size(); level-- > 0;) {
    const int first = m_level_first[level];
    const int end =
        level + 1 < m_level_first.size() ? m_level_first[level + 1] : static_cast<int>(m_nodes.size());
    const auto sweep = [&](int i0, int i1) {
      for (int i = first + i0; i < first + i1; ++i) sweep_node(static_cast<std::size_t>(i));
    };
    if (pool)
      pool->parallel_for(end - first, sweep);
    else
      sweep(0, end - first);
  }
}

template <class Real>
void CpuTree<Real>::sweep_node(std::size_t id) {
  const double theta = m_settings.theta;
  Node& node = m_nodes[id];
  Moments& moments = m_moments[id];
  std::array<double, 3> weighted{};
  if (node.child_first < 0) {
    for (int k = node.first; k < node.first + node.count; ++k) {
      const auto at = static_cast<std::size_t>(k);
      const double m = m_m[at];
      moments.mass += m;
      weighted[0] += m * m_x[at];
      weighted[1] += m * m_y[at];
      weighted[2] += m * m_z[at];
    }
  } else {
    for (int c = node.child_first; c < node.child_first + node.child_count; ++c) {
      const double mass = m_moments[static_cast<std::size_t>(c)].mass;
      moments.mass += mass;
      for (std::size_t a = 0; a < 3; ++a) weighted[a] += mass * m_nodes[static_cast<std::size_t>(c)].com[a];
    }
  }
  // Massless nodes (zero-mass bodies) keep their geometric centre: the first body's position.
  const auto first = static_cast<std::size_t>(node.first);
  for (std::size_t a = 0; a < 3; ++a)
    node.com[a] = moments.mass > 0 ? weighted[a] / moments.mass
                                   : (a == 0   ? m_x[first]
                                      : a == 1 ? m_y[first]
                                               : m_z[first]);
  // Quadrupole about the centre of mass, and the extent, from the bodies (exact, and O(N) per level).
  double extent2 = 0;  // the largest |x - com|^2 of its bodies
  for (int k = node.first; k < node.first + node.count; ++k) {
    const auto at = static_cast<std::size_t>(k);
    const double d[3] = {m_x[at] - node.com[0], m_y[at] - node.com[1], m_z[at] - node.com[2]};
    const double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2];
    const double m = m_m[at];
    moments.quad[0] += m * (3 * d[0] * d[0] - d2);
    moments.quad[1] += m * (3 * d[1] * d[1] - d2);
    moments.quad[2] += m * (3 * d[2] * d[2] - d2);
    moments.quad[3] += m * 3 * d[0] * d[1];
    moments.quad[4] += m * 3 * d[0] * d[2];
    moments.quad[5] += m * 3 * d[1] * d[2];
    extent2 = std::max(extent2, d2);
  }
  // Taken whole when extent < theta d, d the distance to a group's box; theta 0 opens every node.
  node.open2 = theta > 0 ? extent2 / (theta * theta) : std::numeric_limits<double>::infinity();
  Real* const record = &m_multipoles[id * kMultipoleFields];
  for (std::size_t a = 0; a < 3; ++a) record[a] = static_cast<Real>(node.com[a]);
  record[3] = static_cast<Real>(moments.mass);
  for (std::size_t q = 0; q < 6; ++q) record[4 + q] = static_cast<Real>(moments.quad[q]);
}

template <class Real>
void CpuTree<Real>::interaction_list(const Group& group, Scratch& scratch) const {
  // Buffers as long as the most each can take, so each child is filed without a branch: taken whole or opened
  // is the walk's least predictable test.
  const std::size_t most = m_nodes.size() + 1;
  if (scratch.nodes.size() < most) {
    scratch.nodes.resize(most);
    scratch.runs.resize(most);
    scratch.stack.resize(most);
  }
  int* const nodes = scratch.nodes.data();
  Run* const runs = scratch.runs.data();
  int* const stack = scratch.stack.data();
  std::size_t taken = 0, opened = 0, pending = 0;
  int bodies = 0;
  // The children [c0, c1) of an opened node (the root alone at first): the near ones stacked last-first, so
  // leaves are taken in curve order, the pairs' summation order that theta 0's rounding was measured with.
  const auto file = [&](int c0, int c1) {
    for (int c = c1 - 1; c >= c0; --c) {
      const Node& node = m_nodes[static_cast<std::size_t>(c)];
      // The distance from the centre of mass to the nearest point of the group's box.
      double d2 = 0;
      for (std::size_t a = 0; a < 3; ++a) {
        const double gap = std::max({group.lo[a] - node.com[a], node.com[a] - group.hi[a], 0.0});
        d2 += gap * gap;
      }
      const bool take = d2 > node.open2;
      nodes[taken] = c;
      taken += take;
      stack[pending] = c;
      pending += !take;
    }
  };
  if (!m_nodes.empty()) file(0, 1);
  while (pending > 0) {
    const Node& node = m_nodes[static_cast<std::size_t>(stack[--pending])];
    if (node.child_first < 0) {
      runs[opened++] = {node.first, node.count};
      bodies += node.count;
    } else {
      file(node.child_first, node.child_first + node.child_count);
    }
  }
  scratch.taken = static_cast<int>(taken);
  scratch.opened = static_cast<int>(opened);
  scratch.bodies = bodies;
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

}  // namespace coalesce
