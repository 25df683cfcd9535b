// tests/support/cuda_skip.h in a build with CUDA: the device probe's count, as the app's CUDA seam asks it.
#include "tests/support/cuda_skip.h"

#include "kernels/device_probe.h"

namespace coalesce::testing {

bool cuda_available() {
  static const bool available = cuda_device_count(nullptr) > 0;
  return available;
}

}  // namespace coalesce::testing
