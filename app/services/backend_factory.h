// Chooses and builds the backend: CUDA when a device exists (or is asked for), else the CPU with a notice.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "app/services/options.h"
#include "sim/backend.h"

namespace coalesce {

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  std::string notice;  // one short line for stderr and the panel: cpu_fallback_notice, or ""
};

// "no usable NVIDIA driver": the first clause of `why` (count_cuda_devices' cause), no parentheses, for a
// one-line notice; --backend cuda gives the whole cause and its fix.
std::string short_cuda_cause(const std::string& why);

// "running on the CPU backend: no usable NVIDIA driver".
std::string cpu_fallback_notice(const std::string& why);

// Where a run's backend goes when several ranks share a host (app/ranks): GPU local_rank % devices, or the
// CPU's hardware threads shared out; quiet: no memory estimate (a rank other than 0 prints nothing).
// The default is one process alone on its host.
struct RankPlacement {
  int local_rank = 0;
  int ranks_on_host = 1;
  bool quiet = false;
};

// Throws UsageError for --backend cuda without a device, RuntimeFailure when N does not fit in device
// memory (the message gives the bytes needed and available). Prints the memory estimate before allocating.
// `cpu_target`: the CPU backend's SIMD target; none: the widest this CPU runs.
BackendSelection make_backend(BackendChoice choice, int particles, Layout layout,
                              Precision precision = Precision::Fp32,
                              std::optional<CpuTarget> cpu_target = std::nullopt,
                              const RankPlacement& placement = {});

}  // namespace coalesce
