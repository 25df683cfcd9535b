// The list of lab experiments, in the order the articles introduce them, and the device facts.
#include "kernels/lab/lab_registry.h"

#include <cuda_runtime.h>

#include <fstream>
#include <regex>

#include "kernels/cuda_check.h"
#include "kernels/lab/lab_experiments.h"

namespace coalesce::lab {

const std::vector<LabExperiment>& lab_experiments() {
  static const std::vector<LabExperiment> experiments = {
      {"copy", "coalesced copy vs cudaMemcpy", "2 x N x 4 B",
       "a plain one-element-per-thread copy already reaches the memcpy ceiling when the warp reads 128 B",
       run_copy_experiment},
      {"strided", "strided copy, stride 1..32", "useful: 2 x (N/stride) x 4 B",
       "each doubling of the stride halves the useful bytes per 32-byte sector until one float per sector",
       run_strided_experiment},
      {"offset", "copy reading at a misaligned offset", "2 x (N-32) x 4 B",
       "a misaligned warp touches one extra sector out of four or five: a small cost on modern GPUs",
       run_offset_experiment},
      {"vecadd", "vector add, swapped and shifted lanes (art. 001)", "3 x N x 4 B",
       "coalescing is about which sectors a warp touches, not which lane reads which word",
       run_vecadd_experiment},
      {"float4", "scalar vs float4 copy", "2 x N x 4 B",
       "16-byte accesses cut instructions by 4; with enough warps in flight the bandwidth gain is small",
       run_float4_experiment},
      {"gridstride", "grid-stride loop vs one thread per element", "2 x N x 4 B",
       "a resident grid that loops saves block scheduling; for a plain copy the two are close",
       run_gridstride_experiment},
      {"particles", "AoS vs SoA particle update (art. 003)", "3 or 9 x N x 4 B",
       "AoS drags every 28-byte record through DRAM even when one field is used", run_particles_experiment},
      {"transpose", "matrix transpose vs cublasSgeam and copy", "2 x side^2 x 4 B",
       "tiling makes both sides coalesced; padding removes the tile's 32-way column conflicts",
       run_transpose_experiment},
      {"banks", "shared-memory bank conflicts, 1..32-way and padded", "threads x iterations x 4 B (shared)",
       "a k-way conflict costs k shared-memory wavefronts; one pad word per row removes it",
       run_banks_experiment},
      {"ldg", "plain vs const __restrict__ vs __ldg loads", "2 x N x 4 B",
       "on sm_90 global loads already go through L1; the read-only path matters little for streaming",
       run_ldg_experiment},
      {"constant", "constant-memory broadcast vs global vs divergent", "2 x N x 4 B",
       "constant memory is fast only when a warp reads one address; divergent indices serialize",
       run_constant_experiment},
  };
  return experiments;
}

const LabExperiment* find_lab_experiment(std::string_view name) {
  for (const LabExperiment& e : lab_experiments())
    if (e.name == name) return &e;
  return nullptr;
}

bool lab_device_available(std::string* reason) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    if (reason) *reason = cudaGetErrorString(error);
    cudaGetLastError();  // clear the error so later calls in this process start clean
    return false;
  }
  if (count == 0) {
    if (reason) *reason = "no CUDA device found";
    return false;
  }
  return true;
}

namespace {

// The kernel module's version line names the driver release; CUDA's API only gives the CUDA version.
std::string driver_release() {
  std::ifstream file("/proc/driver/nvidia/version");
  std::string line;
  std::getline(file, line);
  std::smatch match;
  if (std::regex_search(line, match, std::regex(R"(\s(\d+\.\d+(\.\d+)?)\s)"))) return match[1];
  return "";
}

}  // namespace

LabDeviceInfo lab_device_info() {
  LabDeviceInfo info;
  int device = 0;
  COALESCE_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  COALESCE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  info.name = prop.name;
  info.sm_count = prop.multiProcessorCount;
  info.driver = driver_release();
  COALESCE_CUDA_CHECK(cudaDriverGetVersion(&info.driver_version));
  COALESCE_CUDA_CHECK(cudaRuntimeGetVersion(&info.runtime_version));
  // CUDA 13 dropped cudaDeviceProp::memoryClockRate: read the attributes (kHz, bits).
  int clock_khz = 0, bus_bits = 0;
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  info.peak_gbps = 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
  return info;
}

}  // namespace coalesce::lab
