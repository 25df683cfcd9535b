// LaunchHold (see launch_hold.h).
#include "kernels/launch_hold.h"

#include "kernels/cuda_check.h"
#include "kernels/launch.h"

namespace coalesce {
namespace {

__device__ unsigned long long global_nanoseconds() {
  unsigned long long ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void wait_for_release(const volatile unsigned int* released, unsigned long long timeout_ns) {
  const unsigned long long start = global_nanoseconds();
  while (*released == 0u && global_nanoseconds() - start < timeout_ns) __nanosleep(1000);
}

}  // namespace

LaunchHold::LaunchHold() {
  COALESCE_CUDA_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&m_host), sizeof(unsigned int), cudaHostAllocMapped));
  *m_host = 1u;
  COALESCE_CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&m_device), m_host, 0));
}

LaunchHold::~LaunchHold() {
  if (m_host) COALESCE_CUDA_CHECK_PRINT(cudaFreeHost(m_host));
}

void LaunchHold::hold(cudaStream_t stream) {
  __atomic_store_n(m_host, 0u, __ATOMIC_RELEASE);
  launch(wait_for_release, LaunchGrid{1, 1}, stream, m_device, kTimeoutNs);
}

void LaunchHold::release() {
  __atomic_store_n(m_host, 1u, __ATOMIC_RELEASE);
}

}  // namespace coalesce
