// tests/support/cuda_skip.h in a build without CUDA: no device, so every GPU test skips, saying so.
#include "tests/support/cuda_skip.h"

namespace coalesce::testing {

bool cuda_available() {
  return false;
}

}  // namespace coalesce::testing
