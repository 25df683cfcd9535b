// What the CUDA backend and the lab learn about a device before and at start-up: device count, the memory
// estimate and check, names, driver and CUDA versions, clocks, theoretical peak and the copy ceiling.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include "kernels/event_timing.h"
#include "sim/backend.h"

namespace coalesce {

// Thrown when N does not fit; what() is one line with the bytes needed and available.
class DeviceMemoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Device memory one CudaBackend needs for N particles (plus the viewer's render buffer).
struct DeviceMemoryEstimate {
  std::size_t state = 0;    // the largest layout's bytes in the precision (max_state_bytes): layout switches
                            // never reallocate
  std::size_t render = 0;   // the N x 4-float render buffer (owned by the viewer)
  std::size_t scratch = 0;  // as large as the state: conversion target, upload/download, host-pack staging
  // Allocated at the first all-pairs step, not at start (attractors never need them), so beyond total():
  // each scheme's partial sums (kernels/kernels.h), 0 where not worked out.
  std::size_t one_sided_partials = 0;
  std::size_t mutual_partials = 0;
  std::size_t total() const { return state + render + scratch; }
};
DeviceMemoryEstimate estimate_device_memory(int particles, Precision precision = Precision::Fp32);
// The same with both schemes' partial sums for N bodies in `layout` on `device`, the mutual one's worked out
// with the memory left free after the state, as it will be at its first step.
DeviceMemoryEstimate estimate_device_memory(int particles, Layout layout, Precision precision, int device);

// "device memory: state X MiB + render Y MiB + scratch Z MiB = T of A MiB free", and, where worked out,
// "; all-pairs partial sums at its first step: one-sided P MiB, mutual Q MiB".
std::string describe_device_memory(const DeviceMemoryEstimate& estimate, std::size_t free_bytes);

// Number of CUDA devices; 0 with `why` set to the cause and the fix when there is none.
int cuda_device_count(std::string* why);
// The cause and the fix for a failed device query, in words ("no usable NVIDIA driver: ...").
std::string no_device_reason(cudaError_t error);
std::size_t free_device_memory(int device);

// Throws DeviceMemoryError when the estimate exceeds the free memory of `device`.
void check_device_memory(int particles, int device, Precision precision = Precision::Fp32);

// Name, SMs, memory, driver and CUDA versions, clocks and theoretical peak; copy_peak_gbps measured once per
// device and process (measure_copy_gbps of two 512 MiB buffers, 5 warm-ups, median of 15). The one device
// probe: the backend, the bench and the lab all report it.
DeviceInfo query_device_info(int device);

// The copy ceiling: cudaMemcpy device-to-device of `bytes` on the current device, timed by `plan`, in GB/s
// of bytes read + written (1 GB = 1e9 B); 0 when bytes is 0.
double measure_copy_gbps(std::size_t bytes, const TimingPlan& plan);

}  // namespace coalesce
