// The CUDA side of app/services/cuda_services.h: the backend and the device probe (device 0 unless a rank
// takes another).
#include "app/services/cuda_services.h"

#include <cstdio>

#include "kernels/cuda_backend.h"
#include "kernels/device_probe.h"
#include "sim/errors.h"

namespace coalesce {

namespace {
constexpr int kDevice = 0;
}  // namespace

int count_cuda_devices(std::string* why) {
  return cuda_device_count(why);
}

std::unique_ptr<Backend> make_cuda_backend(int particles, Layout layout, Precision precision,
                                           MemoryEstimate estimate, int device) {
  if (estimate == MemoryEstimate::Print)
    std::fprintf(stderr, "%s\n",
                 describe_device_memory(estimate_device_memory(particles, layout, precision, device),
                                        free_device_memory(device))
                     .c_str());
  try {
    return std::make_unique<CudaBackend>(particles, layout, device, precision);
  } catch (const DeviceMemoryError& e) {
    throw RuntimeFailure(e.what());
  }
}

std::size_t cuda_free_memory() {
  return free_device_memory(kDevice);
}

}  // namespace coalesce
