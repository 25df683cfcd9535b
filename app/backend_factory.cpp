// make_backend: CUDA when a device exists (or is asked for), else the CPU backend with a one-line notice.
#include "app/backend_factory.h"

#include <cstdio>
#include <string>

#include "sim/errors.h"
#include "sim/cpu_backend.h"

#ifdef COALESCE_HAVE_CUDA
#include "kernels/cuda_backend.h"
#include "kernels/device_probe.h"
#endif

namespace coalesce {

namespace {

std::unique_ptr<Backend> make_cpu(int particles, Layout layout) {
  return std::make_unique<CpuBackend>(particles, layout);
}

}  // namespace

#ifdef COALESCE_HAVE_CUDA

BackendSelection make_backend(BackendChoice choice, int particles, Layout layout) {
  if (choice == BackendChoice::Cpu) return {make_cpu(particles, layout), ""};
  std::string why;
  if (cuda_device_count(&why) == 0) {
    if (choice == BackendChoice::Cuda)
      throw UsageError("--backend cuda: no CUDA device found (" + why + "); use --backend cpu");
    return {make_cpu(particles, layout), "no CUDA device found (" + why + "): using the CPU backend"};
  }
  constexpr int kDevice = 0;
  std::fprintf(
      stderr, "%s\n",
      describe_device_memory(estimate_device_memory(particles), free_device_memory(kDevice)).c_str());
  try {
    return {std::make_unique<CudaBackend>(particles, layout, kDevice), ""};
  } catch (const DeviceMemoryError& e) {
    throw RuntimeFailure(e.what());
  }
}

#else

BackendSelection make_backend(BackendChoice choice, int particles, Layout layout) {
  if (choice == BackendChoice::Cuda)
    throw UsageError("--backend cuda: this build has no CUDA support; use --backend cpu");
  const std::string notice = choice == BackendChoice::Auto ? "built without CUDA: using the CPU backend" : "";
  return {make_cpu(particles, layout), notice};
}

#endif

}  // namespace coalesce
