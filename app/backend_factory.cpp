// make_backend: CUDA when a device exists (or is asked for), else the CPU backend with a one-line notice.
#include "app/backend_factory.h"

#include <string>

#include "app/cuda_services.h"
#include "sim/cpu_backend.h"
#include "sim/errors.h"

namespace coalesce {

BackendSelection make_backend(BackendChoice choice, int particles, Layout layout) {
  if (choice == BackendChoice::Cpu) return {std::make_unique<CpuBackend>(particles, layout), ""};
  std::string why;
  if (count_cuda_devices(&why) == 0) {
    if (choice == BackendChoice::Cuda)
      throw UsageError("--backend cuda: no CUDA device found (" + why + "); use --backend cpu");
    return {std::make_unique<CpuBackend>(particles, layout),
            "no CUDA device found (" + why + "): using the CPU backend"};
  }
  return {make_cuda_backend(particles, layout), ""};
}

}  // namespace coalesce
