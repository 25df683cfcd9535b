// Device helpers every lab experiment uses: hashed inputs, poisoning, a mismatch-counting check kernel,
// grid arithmetic and the event timer (warm-up, then the median of repeats).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/cuda_check.h"
#include "kernels/cuda_event.h"
#include "kernels/device_buffer.h"
#include "kernels/lab/lab_types.h"

namespace coalesce::lab {

constexpr int kBlock = 256;

// A 32-bit mix of (seed, index): inputs differ every run and are never all zeros.
__host__ __device__ inline std::uint32_t lab_hash(std::uint32_t seed, std::uint64_t i) {
  std::uint64_t x = i * 0x9E3779B97F4A7C15ull + seed * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
  x ^= x >> 31;
  x *= 0xD6E8FEB86659FD93ull;
  x ^= x >> 32;
  return static_cast<std::uint32_t>(x);
}

// A float in [-1, 1) with 24 significant bits, exact in float.
__host__ __device__ inline float lab_value(std::uint32_t seed, std::uint64_t i) {
  return static_cast<float>(static_cast<std::int32_t>(lab_hash(seed, i) >> 8) - (1 << 23)) *
         (1.0f / (1 << 23));
}

// Grid for one thread per element, 64-bit safe.
inline unsigned blocks_for(std::int64_t n, int block = kBlock) {
  return static_cast<unsigned>((n + block - 1) / block);
}

// Launch checked right after the launch: a bad configuration must not be timed as a fast kernel.
inline void check_launch() {
  COALESCE_CUDA_CHECK(cudaGetLastError());
}

// data[i] = lab_value(seed, i * scale + shift): a strided view of one hashed sequence (SoA fields).
void fill_values(float* data, std::int64_t n, std::uint32_t seed, std::int64_t scale = 1,
                 std::int64_t shift = 0);
void poison(void* data, std::size_t bytes);  // NaN bytes: unwritten outputs fail

// Counts outputs that differ from expected(i) by more than tol * (1 + |expected|); NaN never passes.
template <class Expected>
__global__ void count_mismatches_kernel(const float* out, std::int64_t n, Expected expected, float tol,
                                        unsigned long long* bad) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const float e = expected(i);
    const float o = out[i];
    if (!(fabsf(o - e) <= tol * (1.0f + fabsf(e)))) atomicAdd(bad, 1ull);
  }
}

// True when every one of n outputs matches expected(i); tol 0 means bit-exact values.
template <class Expected>
bool device_check(const float* out, std::int64_t n, Expected expected, float tol = 0.0f) {
  DeviceBuffer<unsigned long long> bad(1);
  COALESCE_CUDA_CHECK(cudaMemset(bad.data(), 0, sizeof(unsigned long long)));
  count_mismatches_kernel<<<std::min<unsigned>(blocks_for(n), 4096u), kBlock>>>(out, n, expected, tol,
                                                                                bad.data());
  check_launch();
  unsigned long long host_bad = 0;
  COALESCE_CUDA_CHECK(cudaMemcpy(&host_bad, bad.data(), sizeof(host_bad), cudaMemcpyDeviceToHost));
  return host_bad == 0;
}

// Host vector -> new device buffer, and back (tests and small checks only).
template <class T>
DeviceBuffer<T> upload(const std::vector<T>& host) {
  DeviceBuffer<T> buffer(host.size());
  COALESCE_CUDA_CHECK(
      cudaMemcpy(buffer.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return buffer;
}
template <class T>
std::vector<T> download(const T* device, std::size_t n) {
  std::vector<T> host(n);
  COALESCE_CUDA_CHECK(cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

// Median time of launch() in ms, after a warm-up of at least settings.warmup_calls calls and about
// settings.warmup_ms of work (the first launches on fresh buffers run slow on the H100, SPEC section 7).
template <class Launch>
double median_time_ms(Launch&& launch, const LabSettings& settings) {
  CudaEvent start;
  CudaEvent stop;
  // warmup_calls == 0 (Nsight Compute runs): no warm-up at all, the checked launch before came first anyway.
  const int calls = std::max(0, settings.warmup_calls);
  if (calls > 0) {
    COALESCE_CUDA_CHECK(cudaEventRecord(start.get()));
    for (int i = 0; i < calls; ++i) launch();
    COALESCE_CUDA_CHECK(cudaEventRecord(stop.get()));
    COALESCE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    float warm_ms = 0;
    COALESCE_CUDA_CHECK(cudaEventElapsedTime(&warm_ms, start.get(), stop.get()));
    const double per_call = std::max(1e-4, double(warm_ms) / calls);
    const double missing_ms = settings.warmup_ms - warm_ms;
    const int extra = missing_ms > 0 ? static_cast<int>(std::min(5000.0, missing_ms / per_call)) : 0;
    for (int i = 0; i < extra; ++i) launch();
  }
  const int repeats = settings.repeats;
  std::vector<float> times(static_cast<std::size_t>(std::max(1, repeats)));
  for (float& t : times) {
    COALESCE_CUDA_CHECK(cudaEventRecord(start.get()));
    launch();
    COALESCE_CUDA_CHECK(cudaEventRecord(stop.get()));
    COALESCE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    COALESCE_CUDA_CHECK(cudaEventElapsedTime(&t, start.get(), stop.get()));
  }
  check_launch();
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace coalesce::lab
