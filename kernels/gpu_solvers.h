// The GPU's force solvers, one per force-method row it runs: host code that schedules and queues the
// kernels of kernels.h on the backend's stream.
#pragma once

#include <memory>

#include <cuda_runtime.h>

#include "kernels/device_buffer.h"
#include "sim/force_solver.h"
#include "sim/tree_settings.h"

namespace coalesce {

struct GpuSolverContext {
  cudaStream_t stream;
  // The all-pairs partial sums, one grow-only buffer per backend lent to both schemes, so switching
  // between them allocates no more than the larger needs.
  DeviceBuffer<unsigned char>& partials;
  const TreeSettings& tree;  // the backend's, read at each step
};

// The solver of `method` on a GPU, or null for a row with none (the backend refuses it); its switch
// names every row (-Werror=switch).
std::unique_ptr<ForceSolver> make_gpu_solver(ForceMethod method, const GpuSolverContext& context);

}  // namespace coalesce
