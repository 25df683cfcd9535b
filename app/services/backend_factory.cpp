// make_backend: CUDA when a device exists (or is asked for), else the CPU backend with a short notice.
#include "app/services/backend_factory.h"

#include <algorithm>
#include <string>

#include "app/services/cuda_services.h"
#include "sim/cpu_backend.h"
#include "sim/errors.h"
#include "sim/usable_cpus.h"

namespace coalesce {

std::string short_cuda_cause(const std::string& why) {
  // The cause's first clause: the full cause, fix included, is what --backend cuda reports.
  const std::size_t end = std::min(why.find(" ("), why.find(':'));
  const std::string cause = why.substr(0, end);
  return cause.empty() ? std::string("no CUDA device") : cause;
}

std::string cpu_fallback_notice(const std::string& why) {
  return "running on the CPU backend: " + short_cuda_cause(why);
}

BackendSelection make_backend(BackendChoice choice, int particles, Layout layout, Precision precision,
                              std::optional<CpuTarget> cpu_target, const RankPlacement& placement) {
  const CpuTarget target = cpu_target.value_or(best_cpu_target());
  // 0 (every usable CPU) for a process alone on its host; a share of them for each of several ranks.
  const int threads =
      placement.ranks_on_host > 1 ? std::max(1, usable_cpus().count / placement.ranks_on_host) : 0;
  if (choice == BackendChoice::Cpu)
    return {std::make_unique<CpuBackend>(particles, layout, threads, precision, target), ""};
  std::string why;
  const int devices = count_cuda_devices(&why);
  if (devices == 0) {
    if (choice == BackendChoice::Cuda)
      throw UsageError("--backend cuda: no CUDA device found (" + why + "); use --backend cpu");
    return {std::make_unique<CpuBackend>(particles, layout, threads, precision, target), cpu_fallback_notice(why)};
  }
  return {make_cuda_backend(particles, layout, precision, placement.quiet ? MemoryEstimate::Quiet : MemoryEstimate::Print,
                            placement.local_rank % devices),
          ""};
}

}  // namespace coalesce
