// Device helpers every lab experiment uses: hashed inputs, poisoning, a mismatch-counting check kernel,
// grid arithmetic; the event timer with the lab's settings is kernels/lab/lab_timing.h.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/cuda_check.h"
#include "kernels/device_buffer.h"
#include "kernels/launch.h"
#include "kernels/lab/lab_timing.h"  // timed_row: how every row is timed
#include "kernels/lab/lab_types.h"

namespace coalesce::lab {

constexpr int kBlock = 256;
// The lab launches on the default stream, the one its event timer records on.
constexpr cudaStream_t kLabStream = nullptr;

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

// A double in [-1, 1) with all 53 significant bits from two hashes, exact in double: a copy that loses
// or reorders any 4-byte half of it fails the check.
__host__ __device__ inline double lab_value_f64(std::uint32_t seed, std::uint64_t i) {
  const std::uint64_t bits = (std::uint64_t(lab_hash(seed, 2 * i)) << 21) ^ lab_hash(seed, 2 * i + 1);
  return static_cast<double>(static_cast<std::int64_t>(bits) - (std::int64_t(1) << 52)) *
         (1.0 / double(std::int64_t(1) << 52));
}

// Grid for one thread per element, 64-bit safe.
inline unsigned blocks_for(std::int64_t n, int block = kBlock) {
  return static_cast<unsigned>((n + block - 1) / block);
}

// data[i] = lab_value(seed, i * scale + shift): a strided view of one hashed sequence (SoA fields).
void fill_values(float* data, std::int64_t n, std::uint32_t seed, std::int64_t scale = 1,
                 std::int64_t shift = 0);
// The same values as doubles (exact): the particles' fp64 records start from the fp32 run's state.
void fill_values(double* data, std::int64_t n, std::uint32_t seed, std::int64_t scale = 1,
                 std::int64_t shift = 0);
void fill_values_f64(double* data, std::int64_t n, std::uint32_t seed);  // data[i] = lab_value_f64(seed, i)
void poison(void* data, std::size_t bytes);  // NaN bytes: unwritten outputs fail

__device__ inline float magnitude(float x) { return fabsf(x); }
__device__ inline double magnitude(double x) { return fabs(x); }

// Counts outputs that differ from expected(i) by more than tol * (1 + |expected|); NaN never passes.
// T is float, or double for the fp64 experiments.
template <class T, class Expected>
__global__ void count_mismatches_kernel(const T* out, std::int64_t n, Expected expected, T tol,
                                        unsigned long long* bad) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x) {
    const T e = expected(i);
    const T o = out[i];
    if (!(magnitude(o - e) <= tol * (T(1) + magnitude(e)))) atomicAdd(bad, 1ull);
  }
}

// True when every one of n outputs matches expected(i); tol 0 means bit-exact values.
template <class T, class Expected>
bool device_check(const T* out, std::int64_t n, Expected expected, double tol = 0.0) {
  DeviceBuffer<unsigned long long> bad(1);
  COALESCE_CUDA_CHECK(cudaMemset(bad.data(), 0, sizeof(unsigned long long)));
  launch(count_mismatches_kernel<T, Expected>, LaunchGrid{std::min(blocks_for(n), 4096u), kBlock}, kLabStream,
         out, n, expected, static_cast<T>(tol), bad.data());
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

}  // namespace coalesce::lab
