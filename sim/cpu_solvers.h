// The CPU's force solvers, one per force-method row it runs: SIMD loops where the backend has a SIMD
// target, else the scalar reference loops (sim/cpu_kernels.h) the CUDA kernels are tested against.
#pragma once

#include <memory>

#include "sim/cpu_simd.h"
#include "sim/force_solver.h"
#include "sim/thread_pool.h"
#include "sim/tree_settings.h"

namespace coalesce {

struct CpuSolverContext {
  ThreadPool& pool;
  const SimdKernels* simd;   // null: the scalar reference loops
  const TreeSettings& tree;  // the backend's, read at each step's start
};

// The solver of `method` on the CPU, or null for a row with none (the backend refuses it); its switch
// names every row (-Werror=switch).
std::unique_ptr<ForceSolver> make_cpu_solver(ForceMethod method, const CpuSolverContext& context);

// The tree method's solver (sim/cpu_tree_solver.cpp): the reference the GPU tree is tested beside.
std::unique_ptr<ForceSolver> make_cpu_tree_solver(const CpuSolverContext& context);

}  // namespace coalesce
