// tests/support/cuda_skip.h in a build without CUDA: no device, so every GPU test skips, saying so; and
// tests/support/device_hog.h holds nothing.
#include "tests/support/cuda_skip.h"
#include "tests/support/device_hog.h"

namespace coalesce::testing {

bool cuda_available() {
  return false;
}

struct DeviceHog::Blocks {};
DeviceHog::DeviceHog(std::size_t) : m_blocks(std::make_unique<Blocks>()) {}
DeviceHog::~DeviceHog() = default;
std::size_t DeviceHog::held_bytes() const {
  return 0;
}
std::size_t device_free_bytes() {
  return 0;
}

}  // namespace coalesce::testing
