// CpuTree's potential energy (sim/cpu_tree.h): the force walk's interaction lists summed as potentials, so a
// tree run's energy is that of the forces it steps with, at any N the tree runs (issue 32).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <vector>

namespace coalesce {

template <class Real>
double CpuTree<Real>::potential_energy(ThreadPool& pool, double eps2) const {
  // phi by curve position: each a function of the tree and its group alone, whatever thread computes it.
  std::vector<double> phi(m_order.size(), 0.0);
  pool.parallel_for(static_cast<int>(m_groups.size()), [&](int g0, int g1) {
    Scratch scratch;
    for (int gi = g0; gi < g1; ++gi) {
      const Group& group = m_groups[static_cast<std::size_t>(gi)];
      interaction_list(group, scratch);
      for (int k = group.first; k < group.first + group.count; ++k) {
        const auto at = static_cast<std::size_t>(k);
        const double p[3] = {m_x[at], m_y[at], m_z[at]};
        double sum = 0;
        // Body-body: -m_b / sqrt(r^2 + eps^2), the target itself skipped (its leaf is always opened).
        for (int r = 0; r < scratch.opened; ++r) {
          const Run& run = scratch.runs[static_cast<std::size_t>(r)];
          for (int b = run.first; b < run.first + run.count; ++b) {
            if (b == k) continue;
            const auto j = static_cast<std::size_t>(b);
            const double dx = m_x[j] - p[0], dy = m_y[j] - p[1], dz = m_z[j] - p[2];
            sum -= static_cast<double>(m_m[j]) / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
          }
        }
        // Body-node: phi = -M/r - 1/2 (r.Q.r)/r^5, r = p - com softened as the pairs are, Q = sum m (3dd -
        // d^2 I): minus the gradient is the walk's a = -M r/r^3 + Q r/r^5 - 5/2 (r.Q.r) r/r^7
        // (sim/cpu_tree_walk.h).
        for (int t = 0; t < scratch.taken; ++t) {
          const auto id = static_cast<std::size_t>(scratch.nodes[static_cast<std::size_t>(t)]);
          const Node& node = m_nodes[id];
          const Moments& moments = m_moments[id];
          const double r[3] = {p[0] - node.com[0], p[1] - node.com[1], p[2] - node.com[2]};
          const double r2 = r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + eps2;
          const double inv = 1.0 / std::sqrt(r2), inv2 = inv * inv, inv5 = inv * inv2 * inv2;
          const std::array<double, 6>& q = moments.quad;
          const double rqr = q[0] * r[0] * r[0] + q[1] * r[1] * r[1] + q[2] * r[2] * r[2] +
                             2 * (q[3] * r[0] * r[1] + q[4] * r[0] * r[2] + q[5] * r[1] * r[2]);
          sum -= moments.mass * inv + 0.5 * rqr * inv5;
        }
        phi[at] = sum;
      }
    }
  });
  double total = 0;  // along the curve: one order for one state
  for (std::size_t k = 0; k < phi.size(); ++k) total += static_cast<double>(m_m[k]) * phi[k];
  return 0.5 * total;
}

}  // namespace coalesce
