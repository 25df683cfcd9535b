// The CUDA side of app/cuda_services.h: the backend, the device probe and the lab, on device 0.
#include "app/cuda_services.h"

#include <cstdio>

#include "app/utc_time.h"
#include "kernels/cuda_backend.h"
#include "kernels/device_probe.h"
#include "kernels/lab/lab_registry.h"
#include "sim/errors.h"

namespace coalesce {

namespace {
constexpr int kDevice = 0;
}  // namespace

int count_cuda_devices(std::string* why) {
  return cuda_device_count(why);
}

std::unique_ptr<Backend> make_cuda_backend(int particles, Layout layout) {
  std::fprintf(
      stderr, "%s\n",
      describe_device_memory(estimate_device_memory(particles), free_device_memory(kDevice)).c_str());
  try {
    return std::make_unique<CudaBackend>(particles, layout, kDevice);
  } catch (const DeviceMemoryError& e) {
    throw RuntimeFailure(e.what());
  }
}

std::size_t cuda_free_memory() {
  return free_device_memory(kDevice);
}

const std::vector<lab::LabExperiment>& lab_experiment_list() {
  return lab::lab_experiments();
}

lab::LabRun run_lab_experiments(const lab::LabSettings& settings,
                                const std::vector<const lab::LabExperiment*>& experiments,
                                const lab::LabProgress& progress) {
  const std::string date = utc_now();
  lab::LabRun run = lab::run_experiments(settings, experiments, progress);
  run.date_utc = date;
  return run;
}

}  // namespace coalesce
