// One force method (a row of sim/force_method.h) on one backend: it owns its schedule and its scratch, and
// the backend keeps the state, drift, pack, exchange and timing. A backend makes one per row it steps
// (sim/cpu_solvers.h, kernels/gpu_solvers.h) and keeps it for its life, so schedules and scratch persist
// across steps as they did inside the backends.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/body_span.h"
#include "sim/diagnostics.h"
#include "sim/force_error.h"
#include "sim/force_method.h"
#include "sim/layout_storage.h"
#include "sim/sim_params.h"

namespace coalesce {

// What a solver reads its sources from: the state's own view (every body's position and mass in place),
// or rows the backend gathered at the step's start (the CPU's SIMD loops).
enum class SourceNeed { InPlace, Rows };

// {x, y, z, m} of all N bodies at a step's start. The state's particle order is never changed by a solver:
// download(), the rank slices, the render order and every bitwise test rely on it.
struct Sources {
  StateViews state;  // in place: every solver may read positions and masses here
  // Gathered (SourceNeed::Rows): rows x | y | z | m of `stride` scalars of the state's precision each,
  // 64-byte aligned, zero past N (sim/cpu_sources.h).
  const void* rows = nullptr;
  std::size_t stride = 0;
  double reach = 0;  // the largest |x|, |y| or |z| of the rows, exact in the state's precision
};

// What a kick moved beside the state's bytes (KernelTiming::scratch_bytes, the formulas' scratch line).
struct ForceCost {
  double scratch_bytes = 0;
  std::string_view scratch_what;  // kPartialSums, kStagedSources (sim/byte_counts.h)
  // A counted row's interactions (Evaluations::Counted: the tree's body-body plus body-node pulls); none
  // where the row's formula counts them, or where the count is not known when the kick is queued (a GPU).
  std::optional<double> counted;
};

// A method's own potential energy and the opening angle it was walked at.
struct MethodPotential {
  double energy = 0;
  double theta = 0;
};

// `motion` (kinetic energy and momentum, no potential) completed with a method's own potential: both
// backends' diagnostics of a tree run.
inline Diagnostics with_method_potential(Diagnostics motion, const MethodPotential& own) {
  motion.potential_energy = own.energy;
  motion.total_energy = motion.kinetic_energy + own.energy;
  motion.tree_theta = own.theta;
  return motion;
}

class ForceSolver {
 public:
  virtual ~ForceSolver() = default;
  virtual ForceMethod method() const = 0;
  virtual SourceNeed source_need() const = 0;
  // Once per step, before its kick, outside the GPU's timing: the schedule for `targets`, scratch grown, the
  // attractors' snapshot at `time`.
  virtual void prepare(const Sources& sources, BodyRange targets, const SimParams& params, double time) = 0;
  // v += a dt for `targets`, the range prepare() was given. CPU: runs on the pool; GPU: queues on the
  // stream, no allocation and no synchronization (the event pair around it times the launches alone).
  virtual ForceCost kick(const Sources& sources, BodyRange targets, const SimParams& params) = 0;

  // An approximate method's accelerations of `targets` (state indices) beside the exact float64 direct sum's,
  // for its error (sim/force_error.h); none for an exact method. Synchronizes; not timed: not frame work.
  virtual std::optional<AccelerationSample> sample_accelerations(const Sources&, const std::vector<int>&,
                                                                 const SimParams&) {
    return std::nullopt;
  }
  // The method's own potential energy W = 1/2 sum m_i phi_i of the state now, phi from the same walk as its
  // forces (the tree's, built afresh at `params`' softening in double), and the theta it opened with; none
  // for a method whose potential is the exact pair sum. Synchronizes; not timed: not frame work.
  virtual std::optional<MethodPotential> potential_energy(const Sources&, const SimParams&) {
    return std::nullopt;
  }
  // The tree's counts and stage times of its last kick; none for the other methods or before a kick.
  // Synchronizes.
  virtual std::optional<TreeReport> tree_report() { return std::nullopt; }
};

// The solvers one backend has made: each row's on its first step, kept for the backend's life (its schedule
// and scratch with it). `make` is the backend's factory (sim/cpu_solvers.h, kernels/gpu_solvers.h).
class SolverSet {
 public:
  using Factory = std::function<std::unique_ptr<ForceSolver>(ForceMethod)>;
  explicit SolverSet(Factory make) : m_make(std::move(make)) {}

  // Backend::set_force_method admits only rows the backend has a solver for, so a null one is a bug.
  ForceSolver& operator[](ForceMethod method) {
    std::unique_ptr<ForceSolver>& solver = m_solvers[static_cast<std::size_t>(method)];
    if (!solver) solver = m_make(method);
    if (!solver)
      throw std::logic_error("the factory made no solver for the " + std::string(method_info(method).name) +
                             " method, which its row says this backend has");
    return *solver;
  }

 private:
  Factory m_make;
  std::array<std::unique_ptr<ForceSolver>, kForceMethodCount> m_solvers;
};

}  // namespace coalesce
