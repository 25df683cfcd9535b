// The tree's own potential energy (kernels/tree.h): the potential walk's m phi per body, then one sum.
#include <cub/device/device_reduce.cuh>

#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"
#include "kernels/tree.h"

namespace coalesce::gpu {

double GpuTree::potential_energy(const StateViews& state, const SimParams& params, cudaStream_t stream) {
  check_state(state);
  if (m_n < 2) return 0.0;  // no pair
  // Held for the call alone: diagnostics are rare, and the tree's resident memory stays what a step needs.
  DeviceBuffer<double> weighted(static_cast<std::size_t>(m_n)), total(1);
  walk(WalkMode::Potential, state, BodyRange{0, m_n}, nullptr, 0, weighted.data(), params, stream);
  // CUB's reduction: a fixed tiling and no atomics, so the same inputs give the same bits on one device.
  std::size_t temp_bytes = 0;
  COALESCE_CUDA_CHECK(
      cub::DeviceReduce::Sum(nullptr, temp_bytes, weighted.data(), total.data(), m_n, stream));
  DeviceBuffer<std::byte> temp(temp_bytes);
  COALESCE_CUDA_CHECK(
      cub::DeviceReduce::Sum(temp.data(), temp_bytes, weighted.data(), total.data(), m_n, stream));
  double host = 0.0;
  COALESCE_CUDA_CHECK(cudaMemcpyAsync(&host, total.data(), sizeof(double), cudaMemcpyDeviceToHost, stream));
  COALESCE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return 0.5 * host;
}

}  // namespace coalesce::gpu
