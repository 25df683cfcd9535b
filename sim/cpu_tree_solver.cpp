// The tree method on the CPU (sim/cpu_tree.h): the tree is built from all N bodies at each step's start, in
// prepare(), and its walk kicks the targets through the state's own view. The build counts as the forces'
// time, as the backend times prepare() and kick() together.
#include <type_traits>

#include "sim/byte_counts.h"
#include "sim/cpu_solvers.h"
#include "sim/cpu_tree.h"
#include "sim/layout_views.h"

namespace coalesce {

namespace {

class CpuTreeSolver final : public ForceSolver {
 public:
  explicit CpuTreeSolver(const CpuSolverContext& context)
      : m_pool(context.pool), m_simd(context.simd), m_settings(context.tree) {}
  ForceMethod method() const override { return ForceMethod::Tree; }
  SourceNeed source_need() const override { return SourceNeed::InPlace; }
  void prepare(const Sources& sources, BodyRange, const SimParams&, double) override {
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      tree<Real>().build([&](int i) { return view.position_mass(i); }, sources.state.n, m_settings);
    });
  }
  ForceCost kick(const Sources& sources, BodyRange targets, const SimParams& params) override {
    TreeCounts counts;
    double copy_bytes = 0;  // the sorted copy of {x, y, z, m}: written by the build, read by the walk
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      copy_bytes = 4.0 * sizeof(Real) * sources.state.n;
      const Real dt = time_step<Real>(params);
      counts = tree<Real>().accelerations(
          m_pool, [&](int i) { return view.position(i); }, targets, softening_squared<Real>(params),
          [&](int i, Vec3T<Real> a) { view.set_velocity(i, coalesce::kick(view.velocity(i), a, dt)); },
          m_simd ? &simd_kernels_for<Real>(*m_simd) : nullptr);
    });
    return {copy_bytes, kSortedSources, counts.particle_particle + counts.particle_node};
  }

 private:
  template <class Real>
  CpuTree<Real>& tree() {
    if constexpr (std::is_same_v<Real, float>)
      return m_fp32;
    else
      return m_fp64;
  }

  ThreadPool& m_pool;
  const SimdKernels* m_simd;       // null: the scalar reference loops
  const TreeSettings& m_settings;  // the backend's: --theta and the panel's slider
  CpuTree<float> m_fp32;           // one per precision: a switch keeps the other's storage
  CpuTree<double> m_fp64;
};

}  // namespace

std::unique_ptr<ForceSolver> make_cpu_tree_solver(const CpuSolverContext& context) {
  return std::make_unique<CpuTreeSolver>(context);
}

}  // namespace coalesce
