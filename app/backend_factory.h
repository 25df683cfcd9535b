// Chooses and builds the backend: CUDA when a device exists (or is asked for), else the CPU with a notice.
#pragma once

#include <memory>
#include <string>

#include "app/options.h"
#include "sim/backend.h"

namespace coalesce {

struct BackendSelection {
  std::unique_ptr<Backend> backend;
  std::string notice;  // one line for stderr and the panel, e.g. "no CUDA device found: using the CPU backend"
};

// Throws UsageError for --backend cuda without a device, RuntimeFailure when N does not fit in device
// memory (the message gives the bytes needed and available). Prints the memory estimate before allocating.
BackendSelection make_backend(BackendChoice choice, int particles, Layout layout);

}  // namespace coalesce
