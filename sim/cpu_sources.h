// The CPU backend's one gather of the sources' {x, y, z, m}: the SIMD solvers' rows and the ranks' exchange
// both read the state through gather_sources, so no two paths read a body differently.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#include "sim/cpu_simd.h"
#include "sim/force_solver.h"
#include "sim/thread_pool.h"

namespace coalesce {

// sink(i, {x, y, z, m}) for bodies [begin, end), the pool's threads each a range.
template <class View, class Sink>
void gather_sources(ThreadPool& pool, const View& view, int begin, int end, const Sink& sink) {
  pool.parallel_for(end - begin, [&](int first, int last) {
    for (int i = begin + first; i < begin + last; ++i) sink(i, view.position_mass(i));
  });
}

// Rows x | y | z | m of every body, zero past N to whole SIMD blocks, 64-byte aligned (AVX-512's aligned
// loads); grown when too small, kept between steps.
class SourceRows {
 public:
  template <class View>
  Sources gather(ThreadPool& pool, const View& view, const StateViews& state, int n) {
    using Real = typename View::Scalar;
    const int blocks = (n + kSimdBlock - 1) / kSimdBlock;
    const std::size_t stride = static_cast<std::size_t>(blocks) * kSimdBlock;
    Real* const x = rows<Real>(stride);
    Real *const y = x + stride, *const z = y + stride, *const m = z + stride;
    gather_sources(pool, view, 0, n, [&](int i, const Vec4T<Real>& pm) {
      x[i] = pm.x;
      y[i] = pm.y;
      z[i] = pm.z;
      m[i] = pm.w;
    });
    for (std::size_t i = static_cast<std::size_t>(n); i < stride; ++i) x[i] = y[i] = z[i] = m[i] = Real(0);
    std::vector<Real> block_reach(static_cast<std::size_t>(blocks));  // the near/far loop's bound, per block
    pool.parallel_for(blocks, [&](int b0, int b1) {
      for (int b = b0; b < b1; ++b) {
        Real reach = 0;
        for (std::size_t i = std::size_t(b) * kSimdBlock; i < std::size_t(b + 1) * kSimdBlock; ++i)
          reach = std::max({reach, std::fabs(x[i]), std::fabs(y[i]), std::fabs(z[i])});
        block_reach[static_cast<std::size_t>(b)] = reach;
      }
    });
    return {state, x, stride, static_cast<double>(*std::max_element(block_reach.begin(), block_reach.end()))};
  }

 private:
  struct AlignedFree {
    void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t{64}); }
  };

  template <class Real>
  Real* rows(std::size_t stride) {
    const std::size_t bytes = 4 * stride * sizeof(Real);
    if (bytes > m_bytes) {
      m_data.reset();  // the old rows go before the larger ones are made
      m_bytes = 0;
      m_data.reset(static_cast<std::byte*>(::operator new[](bytes, std::align_val_t{64})));
      m_bytes = bytes;
    }
    return reinterpret_cast<Real*>(m_data.get());
  }

  std::unique_ptr<std::byte[], AlignedFree> m_data;
  std::size_t m_bytes = 0;
};

}  // namespace coalesce
