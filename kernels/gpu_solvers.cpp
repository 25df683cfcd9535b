// The GPU force solvers: the schedule is worked out and the scratch grown in prepare(), before the backend's
// event pair, so the timing holds the launches alone.
#include "kernels/gpu_solvers.h"

#include "kernels/cuda_check.h"
#include "kernels/kernels.h"
#include "kernels/tree.h"
#include "sim/byte_counts.h"

namespace coalesce {

namespace {

// Grown, never shrunk: the first all-pairs step allocates; the attractor solver never needs it.
void grow(DeviceBuffer<unsigned char>& buffer, std::size_t bytes) {
  if (buffer.size() < bytes) buffer = DeviceBuffer<unsigned char>(bytes);
}

// Every ordered pair: segments of the sources from N alone, chunks of the targets, partial sums added in
// segment order (kernels/forces_all_pairs.cu).
class GpuOneSidedSolver final : public ForceSolver {
 public:
  explicit GpuOneSidedSolver(const GpuSolverContext& context) : m_context(context) {}
  ForceMethod method() const override { return ForceMethod::OneSidedAllPairs; }
  SourceNeed source_need() const override { return SourceNeed::InPlace; }
  void prepare(const Sources& sources, BodyRange targets, const SimParams&, double) override {
    m_schedule = gpu::all_pairs_schedule(sources.state, targets);
    grow(m_context.partials, m_schedule.partial_bytes);
  }
  ForceCost kick(const Sources& sources, BodyRange targets, const SimParams& params) override {
    gpu::all_pairs_kick(sources.state, targets, m_schedule, params, m_context.partials.data(),
                        m_context.stream);
    return {static_cast<double>(m_schedule.partial_bytes), kPartialSums, std::nullopt};
  }

 private:
  GpuSolverContext m_context;
  gpu::AllPairsSchedule m_schedule;  // for the targets prepare() was given
};

// Each unordered pair once, in tiles whose count fits the free memory (kernels/forces_all_pairs_mutual.cu).
class GpuMutualSolver final : public ForceSolver {
 public:
  explicit GpuMutualSolver(const GpuSolverContext& context) : m_context(context) {}
  ForceMethod method() const override { return ForceMethod::MutualAllPairs; }
  SourceNeed source_need() const override { return SourceNeed::InPlace; }
  void prepare(const Sources& sources, BodyRange, const SimParams&, double) override {
    if (m_n != sources.state.n ||
        m_precision != sources.state.precision) {  // the tile search runs once per N
      m_schedule = gpu::mutual_schedule(sources.state);
      m_n = sources.state.n;
      m_precision = sources.state.precision;
    }
    grow(m_context.partials, m_schedule.partial_bytes);
  }
  ForceCost kick(const Sources& sources, BodyRange, const SimParams& params) override {
    gpu::mutual_kick(sources.state, m_schedule, params, m_context.partials.data(), m_context.stream);
    return {static_cast<double>(m_schedule.partial_bytes), kPartialSums, std::nullopt};
  }

 private:
  GpuSolverContext m_context;
  gpu::MutualSchedule m_schedule;  // for m_n bodies in m_precision
  int m_n = 0;
  Precision m_precision = Precision::Fp32;
};

// Every body pulled by the scene's k attractors at the step's time.
class GpuAttractorSolver final : public ForceSolver {
 public:
  explicit GpuAttractorSolver(const GpuSolverContext& context) : m_context(context) {}
  ForceMethod method() const override { return ForceMethod::Attractors; }
  SourceNeed source_need() const override { return SourceNeed::InPlace; }
  void prepare(const Sources&, BodyRange, const SimParams&, double time) override { m_time = time; }
  ForceCost kick(const Sources& sources, BodyRange targets, const SimParams& params) override {
    gpu::attractor_kick(sources.state, targets, params, m_time, m_context.stream);
    return {0.0, kPartialSums, std::nullopt};
  }

 private:
  GpuSolverContext m_context;
  double m_time = 0.0;  // the step's, from prepare()
};

// The tree (kernels/tree.h): built from all N bodies and walked inside the kick, so the event pair times the
// whole step's forces (sort, build, upsweep, walk); the stage split is the tree's own events.
class GpuTreeSolver final : public ForceSolver {
 public:
  explicit GpuTreeSolver(const GpuSolverContext& context) : m_context(context) {}
  ForceMethod method() const override { return ForceMethod::Tree; }
  SourceNeed source_need() const override { return SourceNeed::InPlace; }
  // Nothing to wait for: the walk's counts stay on the device until tree_report() asks (outside the timing),
  // so a step never synchronizes and bench's held chunks stay queued.
  void prepare(const Sources&, BodyRange targets, const SimParams&, double) override { m_targets = targets; }
  ForceCost kick(const Sources& sources, BodyRange targets, const SimParams& params) override {
    m_tree.build(sources.state, m_context.tree, m_context.stream);
    m_tree.kick(sources.state, targets, params, m_context.stream);
    m_kicked = true;
    // The sorted copy of {x, y, z, m}: written by the build, read by the walk. The count is unknown when the
    // kick is queued (none); bench takes it from tree_report() after its timed steps.
    return {sorted_copy_bytes(sources.state), kSortedSources, std::nullopt};
  }

  std::optional<AccelerationSample> sample_accelerations(const Sources& sources,
                                                         const std::vector<int>& targets,
                                                         const SimParams& params) override {
    const auto count = targets.size();
    AccelerationSample sample{targets, std::vector<Vec3T<double>>(count), std::vector<Vec3T<double>>(count)};
    if (count == 0) return sample;
    const cudaStream_t stream = m_context.stream;
    DeviceBuffer<int> chosen(count);
    DeviceBuffer<double> walked(3 * count), exact(3 * count);
    COALESCE_CUDA_CHECK(
        cudaMemcpyAsync(chosen.data(), targets.data(), count * sizeof(int), cudaMemcpyHostToDevice, stream));
    m_tree.build(sources.state, m_context.tree, stream);  // the state now, whatever the last step built
    m_tree.accelerations(sources.state, chosen.data(), static_cast<int>(count), walked.data(), params,
                         stream);
    // eps^2 in the state's precision, widened: the sum the walk approximates.
    const double eps2 = sources.state.precision == Precision::Fp64
                            ? softening_squared<double>(params)
                            : static_cast<double>(softening_squared<float>(params));
    gpu::direct_accelerations(sources.state, chosen.data(), static_cast<int>(count), exact.data(), eps2,
                              stream);
    std::vector<double> host(6 * count);
    COALESCE_CUDA_CHECK(
        cudaMemcpyAsync(host.data(), walked.data(), walked.bytes(), cudaMemcpyDeviceToHost, stream));
    COALESCE_CUDA_CHECK(cudaMemcpyAsync(host.data() + 3 * count, exact.data(), exact.bytes(),
                                        cudaMemcpyDeviceToHost, stream));
    COALESCE_CUDA_CHECK(cudaStreamSynchronize(stream));
    for (std::size_t k = 0; k < count; ++k) {
      sample.method[k] = {host[3 * k], host[3 * k + 1], host[3 * k + 2]};
      sample.exact[k] = {host[3 * (count + k)], host[3 * (count + k) + 1], host[3 * (count + k) + 2]};
    }
    m_kicked = false;  // the counts on the device are the sample's now, not the last kick's
    return sample;
  }

  std::optional<MethodPotential> potential_energy(const Sources& sources, const SimParams& params) override {
    m_tree.build(sources.state, m_context.tree, m_context.stream);  // the state now, as sample_accelerations
    const double energy = m_tree.potential_energy(sources.state, params, m_context.stream);
    m_kicked = false;  // the stage times are this build's now, not the last kick's
    return MethodPotential{energy, m_context.tree.theta};
  }

  std::optional<TreeReport> tree_report() override {
    if (!m_kicked) return std::nullopt;
    const gpu::TreeStageTimes t = m_tree.last_times();
    return TreeReport{
        m_context.tree,
        m_targets.count(),
        m_tree.last_counts(),
        {{"sort", t.keys_sort_ms}, {"build", t.build_ms}, {"upsweep", t.upsweep_ms}, {"walk", t.walk_ms}}};
  }

 private:
  GpuSolverContext m_context;
  gpu::GpuTree m_tree;  // its buffers grow with N and are kept
  bool m_kicked = false;
  BodyRange m_targets{0, 0};
};

}  // namespace

std::unique_ptr<ForceSolver> make_gpu_solver(ForceMethod method, const GpuSolverContext& context) {
  switch (method) {  // built with -Werror=switch: a new row needs its case here
    case ForceMethod::OneSidedAllPairs:
      return std::make_unique<GpuOneSidedSolver>(context);
    case ForceMethod::MutualAllPairs:
      return std::make_unique<GpuMutualSolver>(context);
    case ForceMethod::Attractors:
      return std::make_unique<GpuAttractorSolver>(context);
    case ForceMethod::Tree:
      return std::make_unique<GpuTreeSolver>(context);
  }
  return nullptr;
}

}  // namespace coalesce
