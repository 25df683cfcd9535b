// Device queries and the one copy-ceiling measurement, for the CUDA backend, the bench and the lab.
#include "kernels/device_probe.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>

#include "kernels/device_buffer.h"
#include "sim/particle.h"
#include "sim/layout_storage.h"
#include "kernels/event_timing.h"
#include "kernels/kernels.h"

namespace coalesce {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// The kernel driver's version ("580.159.04"), which the CUDA runtime does not report; empty if unreadable.
std::string kernel_driver_version() {
  std::ifstream in("/proc/driver/nvidia/version");
  std::string line;
  if (!std::getline(in, line)) return "";
  std::istringstream words(line);
  std::string word;
  while (words >> word)
    if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0])) &&
        word.find('.') != std::string::npos)
      return word;
  return "";
}

// "13.0" from 13000.
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

// Two buffers of up to 512 MiB (1 GiB moved per copy, far beyond the 50 MB L2), 5 warm-ups, median of 15.
double startup_copy_gbps(int device) {
  COALESCE_CUDA_CHECK(cudaSetDevice(device));
  const std::size_t free_bytes = free_device_memory(device);
  const std::size_t reserve = std::size_t{64} << 20;
  std::size_t bytes =
      std::min<std::size_t>(std::size_t{512} << 20, free_bytes > reserve ? (free_bytes - reserve) / 2 : 0);
  bytes &= ~((std::size_t{1} << 20) - 1);
  return measure_copy_gbps(bytes, TimingPlan{5, 0.0, 15});
}

}  // namespace

double measure_copy_gbps(std::size_t bytes, const TimingPlan& plan) {
  if (bytes == 0) return 0.0;
  DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  COALESCE_CUDA_CHECK(cudaMemset(src.data(), 1, bytes));
  const double ms = median_time_ms(
      [&] { COALESCE_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice)); },
      plan);
  return ms > 0 ? 2.0 * static_cast<double>(bytes) / (ms * 1e6) : 0.0;
}

DeviceMemoryEstimate estimate_device_memory(int particles, Precision precision) {
  const std::size_t n = particles > 0 ? static_cast<std::size_t>(particles) : 0;
  const std::size_t state = max_state_bytes(precision, particles > 0 ? particles : 0);
  return {state, kRenderFloatsPerParticle * sizeof(float) * n, state};
}

DeviceMemoryEstimate estimate_device_memory(int particles, Layout layout, Precision precision, int device) {
  DeviceMemoryEstimate e = estimate_device_memory(particles, precision);
  const std::size_t free_bytes = free_device_memory(device);
  const gpu::PartialSumBytes partials = gpu::all_pairs_partial_bytes(
      particles, layout, precision, free_bytes > e.total() ? free_bytes - e.total() : 0);
  e.one_sided_partials = partials.one_sided;
  e.mutual_partials = partials.mutual;
  return e;
}

std::string describe_device_memory(const DeviceMemoryEstimate& e, std::size_t free_bytes) {
  char line[320];
  // One decimal, so a small N does not read "0 MiB" (16,384 particles need 1.25 MiB in all).
  int length = std::snprintf(
      line, sizeof line,
      "device memory: state %.1f MiB + render %.1f MiB + scratch %.1f MiB = %.1f of %.0f MiB free",
      e.state / kMiB, e.render / kMiB, e.scratch / kMiB, e.total() / kMiB, free_bytes / kMiB);
  // The partial sums can be many times the state (hundreds of MB at N = 262,144): named, not hidden.
  if (length > 0 && (e.one_sided_partials > 0 || e.mutual_partials > 0))
    std::snprintf(line + length, sizeof line - static_cast<std::size_t>(length),
                  "; all-pairs partial sums at its first step: one-sided %.1f MiB, mutual %.1f MiB",
                  e.one_sided_partials / kMiB, e.mutual_partials / kMiB);
  return line;
}

int cuda_device_count(std::string* why) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess) {
    (void)cudaGetLastError();  // "no device" must not poison later, unrelated checks
    if (why != nullptr) *why = no_device_reason(error);
    return 0;
  }
  if (count == 0 && why != nullptr) *why = "no NVIDIA GPU found (the CUDA runtime reports 0 devices)";
  return count;
}

std::string no_device_reason(cudaError_t error) {
  switch (error) {
    case cudaErrorInsufficientDriver:
      // What a machine with no NVIDIA driver at all reports too: libcuda is the driver.
      return "no usable NVIDIA driver: none is loaded, or it is older than this build's CUDA " +
             std::to_string(CUDART_VERSION / 1000) + " runtime needs (install or update the NVIDIA driver)";
    case cudaErrorNoDevice:
      return "no NVIDIA GPU found";
    default:
      return std::string("the CUDA runtime failed: ") + cudaGetErrorString(error);
  }
}

std::size_t free_device_memory(int device) {
  COALESCE_CUDA_CHECK(cudaSetDevice(device));
  std::size_t free_bytes = 0, total_bytes = 0;
  COALESCE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

void check_device_memory(int particles, int device, Precision precision) {
  const DeviceMemoryEstimate e = estimate_device_memory(particles, precision);
  const std::size_t free_bytes = free_device_memory(device);
  if (e.total() <= free_bytes) return;
  char line[400];
  std::snprintf(
      line, sizeof line,
      "N = %d particles in %s needs %.0f MiB of device memory (%zu bytes: state + render + scratch) but only "
      "%.0f MiB (%zu bytes) are free; use a smaller --particles%s or --backend cpu",
      particles, std::string(to_string(precision)).c_str(), e.total() / kMiB, e.total(), free_bytes / kMiB,
      free_bytes, precision == Precision::Fp64 ? ", --precision fp32" : "");
  throw DeviceMemoryError(line);
}

DeviceInfo query_device_info(int device) {
  static std::mutex mutex;
  static std::map<int, DeviceInfo> cache;  // the copy ceiling is measured once per device and process
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = cache.find(device); it != cache.end()) return it->second;

  cudaDeviceProp prop{};
  COALESCE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  DeviceInfo info;
  info.gpu = true;
  info.name = prop.name;
  info.multiprocessors = prop.multiProcessorCount;
  info.memory_bytes = static_cast<double>(prop.totalGlobalMem);
  // CUDA 13 removed cudaDeviceProp::memoryClockRate/memoryBusWidth: read them as attributes.
  int memory_khz = 0, bus_bits = 0, sm_khz = 0;
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&memory_khz, cudaDevAttrMemoryClockRate, device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&sm_khz, cudaDevAttrClockRate, device));
  // An attribute the driver reports as 0 is unknown (DeviceInfo keeps no 0 for unknown).
  const auto known = [](int value) { return value > 0 ? std::optional<int>(value) : std::nullopt; };
  info.memory_clock_khz = known(memory_khz);
  info.bus_width_bits = known(bus_bits);
  info.sm_clock_khz = known(sm_khz);
  if (info.memory_clock_khz && info.bus_width_bits)
    info.theoretical_peak_gbps = 2.0 * *info.memory_clock_khz * 1e3 * (*info.bus_width_bits / 8.0) / 1e9;
  int driver = 0, runtime = 0;
  COALESCE_CUDA_CHECK(cudaDriverGetVersion(&driver));
  COALESCE_CUDA_CHECK(cudaRuntimeGetVersion(&runtime));
  info.driver = kernel_driver_version();
  info.cuda_driver = cuda_version_text(driver);
  info.cuda_runtime = cuda_version_text(runtime);
  info.copy_peak_gbps = startup_copy_gbps(device);
  cache.emplace(device, info);
  return info;
}

}  // namespace coalesce
