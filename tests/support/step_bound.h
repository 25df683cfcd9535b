// How far one all-pairs or attractor step of one loop may move a velocity from another loop's (docs/perf.md,
// "Accuracy"): both sums see the same terms m_j d / r^3, each term within `term_ulps` float roundings of
// exact, and each sum's order adds at most n roundings of the sum of |terms|:
//   |v_a - v_b| <= (term_ulps + 2n) eps sum_j |t_j| dt + 2 eps |v| + dt sum_j U_j + 4 tau,
// where U_j = 8 tau ((1 + m_j)(1 + 1/r_j)^3 (1 + |d_j|)) is what underflow may add: each product that falls
// below the normal range rounds to a multiple of tau (half the smallest subnormal with gradual underflow,
// the smallest normal where a kernel flushes to zero), and later factors (m, 1/r, d, dt) scale that.
#pragma once

#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "sim/particle.h"

namespace coalesce::testing {

// Half the smallest subnormal: what a correctly rounded product that underflows may be off by.
template <class Real>
constexpr long double gradual_underflow_unit() {
  return static_cast<long double>(std::numeric_limits<Real>::denorm_min()) / 2;
}

// One source's pull on a target, in long double from the stored values.
struct SourceTerm {
  long double d[3];  // source - target
  long double mass;
  long double inv_r;  // 1 / sqrt(|d|^2 + eps^2)
};

inline SourceTerm source_term(const long double target[3], const long double source[3], long double mass,
                              long double eps2) {
  SourceTerm t{{source[0] - target[0], source[1] - target[1], source[2] - target[2]}, mass, 0};
  t.inv_r = 1 / std::sqrt(eps2 + t.d[0] * t.d[0] + t.d[1] * t.d[1] + t.d[2] * t.d[2]);
  return t;
}

// The bound per velocity component for a target at `target` with velocity `v` (the reference's, after the
// step) pulled by `sources` ({x, y, z, m} each), for two loops whose terms are each within `term_ulps`.
template <class Real>
long double velocity_bound(const long double target[3], const long double v[3],
                           const std::vector<std::array<long double, 4>>& sources, long double eps2,
                           long double dt, double term_ulps, long double tau) {
  const long double eps = std::numeric_limits<Real>::epsilon();
  long double terms = 0, underflow = 0;
  for (const auto& s : sources) {
    const long double at[3] = {s[0], s[1], s[2]};
    const SourceTerm t = source_term(target, at, s[3], eps2);
    const long double distance = std::fabs(t.d[0]) + std::fabs(t.d[1]) + std::fabs(t.d[2]);
    terms += t.mass * t.inv_r * t.inv_r * t.inv_r * distance;
    const long double reach = 1 + t.inv_r;
    underflow += 8 * tau * (1 + t.mass) * reach * reach * reach * (1 + distance);
  }
  const long double speed = std::fabs(v[0]) + std::fabs(v[1]) + std::fabs(v[2]);
  const long double n = static_cast<long double>(sources.size());
  return (term_ulps + 2 * n) * eps * terms * dt + 2 * eps * speed + dt * underflow + 4 * tau;
}

// Every body of `state` as a source {x, y, z, m}, widened.
template <class Real>
std::vector<std::array<long double, 4>> sources_of(const std::vector<ParticleRecord<Real>>& state) {
  std::vector<std::array<long double, 4>> out;
  out.reserve(state.size());
  for (const auto& p : state) out.push_back({p.x, p.y, p.z, p.mass});
  return out;
}

}  // namespace coalesce::testing
