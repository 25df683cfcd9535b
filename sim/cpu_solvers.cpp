// The CPU force solvers: one-sided all-pairs and attractors (SIMD blocks or scalar reference loops) and the
// mutual scheme (scalar on every target: the CUDA kernel's reference).
#include "sim/cpu_solvers.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <type_traits>
#include <vector>

#include "sim/byte_counts.h"
#include "sim/cpu_kernels.h"
#include "sim/cpu_mutual.h"
#include "sim/layout_views.h"

namespace coalesce {

namespace {

template <class Fn>
void parallel_range(ThreadPool& pool, BodyRange targets, Fn&& fn) {
  pool.parallel_for(targets.count(), [&](int b, int e) { fn(targets.begin + b, targets.begin + e); });
}

// The SIMD blocks' kick, in the reference's arithmetic: only the accelerations come from the vector loop.
// Blocks lie on the whole state's 64-body grid, so a slice's bodies sit in the lanes they have in a whole
// step. `stage(first, tx, ty, tz)` gives the block's target positions (64-byte aligned): its own rows, or
// tx, ty, tz filled.
template <class View, class Stage>
void simd_kick(ThreadPool& pool, const SimdKernelsT<typename View::Scalar>& kernels, const View& view,
               BodyRange targets, const SimdForceSources<typename View::Scalar>& sources,
               const SimParams& params, const Stage& stage) {
  using Real = typename View::Scalar;
  const Real eps2 = softening_squared<Real>(params);
  const Real dt = time_step<Real>(params);
  const int base = targets.begin / kSimdBlock * kSimdBlock;
  const int blocks = (targets.end - base + kSimdBlock - 1) / kSimdBlock;
  pool.parallel_for(blocks, [&](int b0, int b1) {
    alignas(64) Real tx[kSimdBlock], ty[kSimdBlock], tz[kSimdBlock], ax[kSimdBlock], ay[kSimdBlock],
        az[kSimdBlock];
    for (int b = b0; b < b1; ++b) {
      const int first = base + b * kSimdBlock;
      const std::array<const Real*, 3> t = stage(first, tx, ty, tz);
      kernels.block_accelerations(t[0], t[1], t[2], kSimdBlock, sources, eps2, ax, ay, az);
      const int last = std::min(targets.end, first + kSimdBlock);
      for (int i = std::max(first, targets.begin); i < last; ++i) {
        const int k = i - first;
        view.set_velocity(i, coalesce::kick(view.velocity(i), Vec3T<Real>{ax[k], ay[k], az[k]}, dt));
      }
    }
  });
}

// Every ordered pair, each body summing its own pulls: a rank may compute a slice.
class CpuOneSidedSolver final : public ForceSolver {
 public:
  explicit CpuOneSidedSolver(const CpuSolverContext& context) : m_pool(context.pool), m_simd(context.simd) {}
  ForceMethod method() const override { return ForceMethod::OneSidedAllPairs; }
  // The SIMD loop reads every layout through the same rows, so the layouts step bitwise alike.
  SourceNeed source_need() const override { return m_simd ? SourceNeed::Rows : SourceNeed::InPlace; }
  void prepare(const Sources&, BodyRange, const SimParams&, double) override {}
  ForceCost kick(const Sources& sources, BodyRange targets, const SimParams& params) override {
    ForceCost cost{0.0, kStagedSources, std::nullopt};
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      if (!m_simd) {
        const Real eps2 = softening_squared<Real>(params);
        const Real dt = time_step<Real>(params);
        parallel_range(m_pool, targets,
                       [&](int begin, int end) { cpu::all_pairs_kick(view, view, begin, end, eps2, dt); });
        return;
      }
      const Real* const x = static_cast<const Real*>(sources.rows);
      const std::size_t s = sources.stride;
      const SimdForceSources<Real> rows{x,         x + s,           x + 2 * s,
                                        x + 3 * s, sources.state.n, static_cast<Real>(sources.reach)};
      // The staged rows are the targets too: no copy of the block.
      simd_kick(m_pool, simd_kernels_for<Real>(*m_simd), view, targets, rows, params,
                [&](int first, Real*, Real*, Real*) {
                  return std::array<const Real*, 3>{rows.x + first, rows.y + first, rows.z + first};
                });
      cost.scratch_bytes = static_cast<double>(4 * s * sizeof(Real));
    });
    return cost;
  }

 private:
  ThreadPool& m_pool;
  const SimdKernels* m_simd;
};

// Up to 16 tiles whatever the thread count (136 rectangles), so every thread count gives the same bits.
constexpr int kCpuMutualTiles = 16;
constexpr int kCpuMutualRow = 64;

// Each unordered pair once, the pull given to both bodies (sim/cpu_mutual.h): the whole state at once.
class CpuMutualSolver final : public ForceSolver {
 public:
  explicit CpuMutualSolver(const CpuSolverContext& context) : m_pool(context.pool) {}
  ForceMethod method() const override { return ForceMethod::MutualAllPairs; }
  SourceNeed source_need() const override { return SourceNeed::InPlace; }
  void prepare(const Sources&, BodyRange, const SimParams&, double) override {}
  ForceCost kick(const Sources& sources, BodyRange, const SimParams& params) override {
    ForceCost cost{0.0, kPartialSums, std::nullopt};
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      const int n = sources.state.n;
      const MutualTiles t =
          mutual_tiles_of_size(n, (n + kCpuMutualTiles - 1) / kCpuMutualTiles, kCpuMutualRow);
      const std::size_t scalars = t.partial_scalars();
      m_partials.resize((scalars * sizeof(Real) + sizeof(double) - 1) / sizeof(double));
      Real* const partials = reinterpret_cast<Real*>(m_partials.data());
      const Real eps2 = softening_squared<Real>(params);
      const Real dt = time_step<Real>(params);
      m_pool.parallel_for(static_cast<int>(t.rectangles()), [&](int u0, int u1) {
        for (int u = u0; u < u1; ++u) cpu::mutual_rectangle_sums(view, t, u, eps2, partials);
      });
      m_pool.parallel_for(n, [&](int begin, int end) {
        for (int i = begin; i < end; ++i)
          view.set_velocity(i, coalesce::kick(view.velocity(i), mutual_acceleration(t, partials, i), dt));
      });
      cost.scratch_bytes = static_cast<double>(scalars * sizeof(Real));
    });
    return cost;
  }

 private:
  ThreadPool& m_pool;
  std::vector<double> m_partials;  // the slots, read as the state's scalar
};

// Every body pulled by the scene's k attractors at the step's time.
class CpuAttractorSolver final : public ForceSolver {
 public:
  explicit CpuAttractorSolver(const CpuSolverContext& context) : m_pool(context.pool), m_simd(context.simd) {}
  ForceMethod method() const override { return ForceMethod::Attractors; }
  SourceNeed source_need() const override { return SourceNeed::InPlace; }
  void prepare(const Sources&, BodyRange, const SimParams&, double time) override { m_time = time; }
  ForceCost kick(const Sources& sources, BodyRange targets, const SimParams& params) override {
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      const auto snapshot = snapshot_attractors(params.attractors, static_cast<Real>(m_time));
      if (!m_simd) {
        const Real eps2 = softening_squared<Real>(params);
        const Real dt = time_step<Real>(params);
        parallel_range(m_pool, targets, [&](int begin, int end) {
          cpu::attractor_kick(view, begin, end, snapshot, eps2, dt);
        });
        return;
      }
      alignas(64) Real sx[kMaxAttractors], sy[kMaxAttractors], sz[kMaxAttractors], sm[kMaxAttractors];
      Real reach = 0;
      for (int k = 0; k < snapshot.count; ++k) {
        sx[k] = snapshot.position[k].x;
        sy[k] = snapshot.position[k].y;
        sz[k] = snapshot.position[k].z;
        sm[k] = snapshot.mass[k];
        reach = std::max({reach, std::fabs(sx[k]), std::fabs(sy[k]), std::fabs(sz[k])});
      }
      const SimdForceSources<Real> pulls{sx, sy, sz, sm, snapshot.count, reach};
      const int n = sources.state.n;
      simd_kick(m_pool, simd_kernels_for<Real>(*m_simd), view, targets, pulls, params,
                [&](int first, Real* tx, Real* ty, Real* tz) {
                  for (int k = 0; k < kSimdBlock; ++k) {
                    const auto p =
                        first + k < n ? view.position(first + k) : Vec3T<Real>{Real(0), Real(0), Real(0)};
                    tx[k] = p.x;
                    ty[k] = p.y;
                    tz[k] = p.z;
                  }
                  return std::array<const Real*, 3>{tx, ty, tz};
                });
    });
    return {0.0, kStagedSources, std::nullopt};
  }

 private:
  ThreadPool& m_pool;
  const SimdKernels* m_simd;
  double m_time = 0.0;  // the step's, from prepare()
};

}  // namespace

std::unique_ptr<ForceSolver> make_cpu_solver(ForceMethod method, const CpuSolverContext& context) {
  switch (method) {  // built with -Werror=switch: a new row needs its case here
    case ForceMethod::OneSidedAllPairs:
      return std::make_unique<CpuOneSidedSolver>(context);
    case ForceMethod::MutualAllPairs:
      return std::make_unique<CpuMutualSolver>(context);
    case ForceMethod::Attractors:
      return std::make_unique<CpuAttractorSolver>(context);
    case ForceMethod::Tree:
      return make_cpu_tree_solver(context);
  }
  return nullptr;
}

}  // namespace coalesce
