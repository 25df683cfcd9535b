// CpuTree's walk (sim/cpu_tree.h): a group's interaction list, then its targets' pulls, through the vector
// loops (sim/cpu_simd.h) when the backend has them, else through the scalar reference loops below.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace coalesce {
namespace tree_detail {

// The first `count` items of a scratch buffer, for range-for.
template <class T>
struct Span {
  const T* first;
  int count;
  const T* begin() const { return first; }
  const T* end() const { return first + count; }
};

}  // namespace tree_detail

template <class Real>
template <class Position, class Sink>
TreeCounts CpuTree<Real>::accelerations(ThreadPool& pool, const Position& position, BodyRange targets,
                                        Real eps2, const Sink& sink, const SimdKernelsT<Real>* simd) const {
  std::vector<int> range;
  for (int i = targets.begin; i < targets.end; ++i) range.push_back(i);
  return walk(
      pool, position, groups_holding(range), [&](int i) { return i >= targets.begin && i < targets.end; },
      eps2, sink, simd);
}

template <class Real>
template <class Position, class Sink>
TreeCounts CpuTree<Real>::accelerations_of(ThreadPool& pool, const Position& position,
                                           const std::vector<int>& targets, Real eps2, const Sink& sink,
                                           const SimdKernelsT<Real>* simd) const {
  std::vector<char> chosen(m_order.size(), 0);
  for (int i : targets) chosen[static_cast<std::size_t>(i)] = 1;
  return walk(
      pool, position, groups_holding(targets),
      [&](int i) { return chosen[static_cast<std::size_t>(i)] != 0; }, eps2, sink, simd);
}

template <class Real>
template <class Position, class Wanted, class Sink>
TreeCounts CpuTree<Real>::walk(ThreadPool& pool, const Position& position, const std::vector<int>& groups,
                               const Wanted& wanted, Real eps2, const Sink& sink,
                               const SimdKernelsT<Real>* simd) const {
  std::vector<TreeCounts> counts(groups.size());
  const double soft = static_cast<double>(eps2);
  const bool vector_loops = simd != nullptr && m_settings.group_size <= kSimdBlock;
  pool.parallel_for(static_cast<int>(groups.size()), [&](int g0, int g1) {
    Scratch scratch;
    alignas(64) Real tx[kSimdBlock], ty[kSimdBlock], tz[kSimdBlock], bx[kSimdBlock], by[kSimdBlock],
        bz[kSimdBlock];
    for (int gi = g0; gi < g1; ++gi) {
      const Group& group = m_groups[static_cast<std::size_t>(groups[static_cast<std::size_t>(gi)])];
      interaction_list(group, scratch);
      const int* const nodes = scratch.nodes.data();
      const Run* const runs = scratch.runs.data();
      bool vector_nodes = false;
      if (vector_loops) {
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
        // The runs' bodies copied into four rows (read a scalar at a time: no alignment needed).
        const auto stride = static_cast<std::size_t>(scratch.bodies);
        scratch.rows.resize(4 * stride);
        Real* const x = scratch.rows.data();
        Real *const y = x + stride, *const z = y + stride, *const m = z + stride;
        std::size_t j = 0;
        for (const Run& run : tree_detail::Span<Run>{runs, scratch.opened})
          // A leaf's few bodies: a plain loop, not a library copy's call per row.
          for (int b = run.first; b < run.first + run.count; ++b, ++j) {
            const auto at = static_cast<std::size_t>(b);
            x[j] = m_x[at];
            y[j] = m_y[at];
            z[j] = m_z[at];
            m[j] = m_m[at];
          }
        simd->block_accelerations(tx, ty, tz, group.count, {x, y, z, m, scratch.bodies, m_reach}, eps2, bx,
                                  by, bz);
        // Centres of mass lie within the bodies' reach: the near node loop serves where the near pairs do.
        vector_nodes = static_cast<double>(target_reach) + static_cast<double>(m_reach) <= kSimdNearReach;
        if (vector_nodes)
          simd->node_accelerations(tx, ty, tz, group.count, {m_multipoles.data(), nodes, scratch.taken}, eps2,
                                   bx, by, bz);
      }
      for (int k = group.first; k < group.first + group.count; ++k) {
        const int i = m_order[static_cast<std::size_t>(k)];
        if (!wanted(i)) continue;
        const Vec3T<Real> p = position(i);
        Real ax = 0, ay = 0, az = 0;
        if (vector_loops) {
          ax = bx[k - group.first];
          ay = by[k - group.first];
          az = bz[k - group.first];
        } else {
          // Body-body pulls in the state's precision, as all-pairs computes them (the self term is 0).
          for (const Run& run : tree_detail::Span<Run>{runs, scratch.opened})
            for (int b = run.first; b < run.first + run.count; ++b) {
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
          for (int id : tree_detail::Span<int>{nodes, scratch.taken}) {
            const Node& node = m_nodes[static_cast<std::size_t>(id)];
            const Moments& moments = m_moments[static_cast<std::size_t>(id)];
            const double r[3] = {p.x - node.com[0], p.y - node.com[1], p.z - node.com[2]};
            const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + soft;
            const double inv = 1.0 / std::sqrt(r2), inv2 = inv * inv, inv3 = inv * inv2, inv5 = inv3 * inv2;
            const std::array<double, 6>& q = moments.quad;
            const double qr[3] = {q[0] * r[0] + q[3] * r[1] + q[4] * r[2],
                                  q[3] * r[0] + q[1] * r[1] + q[5] * r[2],
                                  q[4] * r[0] + q[5] * r[1] + q[2] * r[2]};
            const double rqr = r[0] * qr[0] + r[1] * qr[1] + r[2] * qr[2];
            const double radial = -moments.mass * inv3 - 2.5 * rqr * inv5 * inv2;
            ax += static_cast<Real>(radial * r[0] + qr[0] * inv5);
            ay += static_cast<Real>(radial * r[1] + qr[1] * inv5);
            az += static_cast<Real>(radial * r[2] + qr[2] * inv5);
          }
        sink(i, Vec3T<Real>{ax, ay, az});
        counts[static_cast<std::size_t>(gi)].particle_particle += static_cast<double>(scratch.bodies);
        counts[static_cast<std::size_t>(gi)].particle_node += static_cast<double>(scratch.taken);
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
