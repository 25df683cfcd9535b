// Input filling and output poisoning for the lab: every experiment starts from hashed values and NaN outputs.
#include "kernels/lab/lab_device.cuh"

namespace coalesce::lab {
namespace {

template <class T>
__global__ void fill_values_kernel(T* data, std::int64_t n, std::uint32_t seed, std::int64_t scale,
                                   std::int64_t shift) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    data[i] = lab_value(seed, i * scale + shift);
}

__global__ void fill_values_kernel_f64(double* data, std::int64_t n, std::uint32_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    data[i] = lab_value_f64(seed, i);
}

}  // namespace

void fill_values(float* data, std::int64_t n, std::uint32_t seed, std::int64_t scale, std::int64_t shift) {
  launch(fill_values_kernel<float>, LaunchGrid{std::min(blocks_for(n), 65536u), kBlock}, kLabStream, data, n,
         seed, scale, shift);
}

void fill_values(double* data, std::int64_t n, std::uint32_t seed, std::int64_t scale, std::int64_t shift) {
  launch(fill_values_kernel<double>, LaunchGrid{std::min(blocks_for(n), 65536u), kBlock}, kLabStream, data, n,
         seed, scale, shift);
}

void fill_values_f64(double* data, std::int64_t n, std::uint32_t seed) {
  launch(fill_values_kernel_f64, LaunchGrid{std::min(blocks_for(n), 65536u), kBlock}, kLabStream, data, n, seed);
}

void poison(void* data, std::size_t bytes) {
  // 0xFF bytes are a NaN in every float and double, so a skipped output never equals its reference.
  COALESCE_CUDA_CHECK(cudaMemset(data, 0xFF, bytes));
}

}  // namespace coalesce::lab
