// The tree method on the CPU (sim/cpu_tree.h): the tree is built from all N bodies at each step's start, in
// prepare(), and its walk kicks the targets through the state's own view. The build counts as the forces'
// time, as the backend times prepare() and kick() together.
#include <chrono>
#include <type_traits>

#include "sim/byte_counts.h"
#include "sim/cpu_solvers.h"
#include "sim/cpu_tree.h"
#include "sim/layout_views.h"
#include "sim/physics.h"

namespace coalesce {

namespace {

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

class CpuTreeSolver final : public ForceSolver {
 public:
  explicit CpuTreeSolver(const CpuSolverContext& context)
      : m_pool(context.pool), m_simd(context.simd), m_settings(context.tree) {}
  ForceMethod method() const override { return ForceMethod::Tree; }
  SourceNeed source_need() const override { return SourceNeed::InPlace; }
  void prepare(const Sources& sources, BodyRange, const SimParams&, double) override {
    const auto start = std::chrono::steady_clock::now();
    build(sources);
    m_build_ms = milliseconds_since(start);
  }
  ForceCost kick(const Sources& sources, BodyRange targets, const SimParams& params) override {
    const auto start = std::chrono::steady_clock::now();
    TreeCounts counts;
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      const Real dt = time_step<Real>(params);
      counts = tree<Real>().accelerations(
          m_pool, [&](int i) { return view.position(i); }, targets, softening_squared<Real>(params),
          [&](int i, Vec3T<Real> a) { view.set_velocity(i, coalesce::kick(view.velocity(i), a, dt)); },
          simd<Real>());
    });
    m_report = TreeReport{m_built_with,
                          targets.count(),
                          counts,
                          {{"build", m_build_ms}, {"walk", milliseconds_since(start)}}};
    // The sorted copy: written by the build, read by the walk.
    return {sorted_copy_bytes(sources.state), kSortedSources, counts.particle_particle + counts.particle_node};
  }

  std::optional<AccelerationSample> sample_accelerations(const Sources& sources,
                                                         const std::vector<int>& targets,
                                                         const SimParams& params) override {
    build(sources);  // the state now, whatever the last step built
    AccelerationSample sample{targets, std::vector<Vec3T<double>>(targets.size()),
                              std::vector<Vec3T<double>>(targets.size())};
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      const Real eps2 = softening_squared<Real>(params);
      std::vector<Vec3T<Real>> walked(static_cast<std::size_t>(sources.state.n));
      tree<Real>().accelerations_of(
          m_pool, [&](int i) { return view.position(i); }, targets, eps2,
          [&](int i, Vec3T<Real> a) { walked[static_cast<std::size_t>(i)] = a; }, simd<Real>());
      // The exact sum in double over every body (the self term is 0), the pool's threads a share each.
      const double soft = static_cast<double>(eps2);
      m_pool.parallel_for(static_cast<int>(targets.size()), [&](int k0, int k1) {
        for (int k = k0; k < k1; ++k) {
          const auto at = static_cast<std::size_t>(k);
          const Vec3T<Real> a = walked[static_cast<std::size_t>(targets[at])];
          sample.method[at] = {static_cast<double>(a.x), static_cast<double>(a.y), static_cast<double>(a.z)};
          const Vec3T<Real> p = view.position(targets[at]);
          const Vec3T<double> target{double(p.x), double(p.y), double(p.z)};
          Vec3T<double> exact{0, 0, 0};
          for (int j = 0; j < sources.state.n; ++j) {
            const Vec4T<Real> s = view.position_mass(j);
            accumulate_pair(exact, target, Vec3T<double>{double(s.x), double(s.y), double(s.z)}, double(s.w),
                            soft);
          }
          sample.exact[at] = exact;
        }
      });
    });
    return sample;
  }

  std::optional<MethodPotential> potential_energy(const Sources& sources, const SimParams& params) override {
    build(sources);                                           // the state now, whatever the last step built
    const double eps2 = params.softening * params.softening;  // as the exact potential's, in double
    double energy = 0;
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      energy = tree<Real>().potential_energy(m_pool, eps2);
    });
    return MethodPotential{energy, m_built_with.theta};
  }

  std::optional<TreeReport> tree_report() override { return m_report; }

 private:
  void build(const Sources& sources) {
    m_built_with = m_settings;
    m_built_with.leaf_size = kCpuLeafSize;
    with_view(sources.state, [&](const auto& view) {
      using Real = typename std::decay_t<decltype(view)>::Scalar;
      tree<Real>().build([&](int i) { return view.position_mass(i); }, sources.state.n, m_built_with,
                         &m_pool);
    });
  }
  template <class Real>
  CpuTree<Real>& tree() {
    if constexpr (std::is_same_v<Real, float>)
      return m_fp32;
    else
      return m_fp64;
  }
  template <class Real>
  const SimdKernelsT<Real>* simd() const {
    return m_simd ? &simd_kernels_for<Real>(*m_simd) : nullptr;
  }

  ThreadPool& m_pool;
  const SimdKernels* m_simd;       // null: the scalar reference loops
  const TreeSettings& m_settings;  // the backend's: --theta and the panel's slider
  TreeSettings m_built_with;       // the settings of the tree last built
  CpuTree<float> m_fp32;           // one per precision: a switch keeps the other's storage
  CpuTree<double> m_fp64;
  double m_build_ms = 0;
  std::optional<TreeReport> m_report;  // of the last kick
};

}  // namespace

std::unique_ptr<ForceSolver> make_cpu_tree_solver(const CpuSolverContext& context) {
  return std::make_unique<CpuTreeSolver>(context);
}

}  // namespace coalesce
