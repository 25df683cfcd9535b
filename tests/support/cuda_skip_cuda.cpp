// tests/support/cuda_skip.h in a build with CUDA: the device probe's count, as the app's CUDA seam asks it;
// and tests/support/device_hog.h, through the project's own device buffers.
#include "tests/support/cuda_skip.h"

#include <vector>

#include "kernels/device_buffer.h"
#include "kernels/device_probe.h"
#include "tests/support/device_hog.h"

namespace coalesce::testing {

bool cuda_available() {
  static const bool available = cuda_device_count(nullptr) > 0;
  return available;
}

struct DeviceHog::Blocks {
  std::vector<DeviceBuffer<unsigned char>> buffers;
  std::size_t bytes = 0;
};

// Halving blocks: large ones first, then smaller, until only about `leave` is free (or a block fails).
DeviceHog::DeviceHog(std::size_t leave) : m_blocks(std::make_unique<Blocks>()) {
  for (std::size_t block = std::size_t{1} << 32; block >= (std::size_t{1} << 20);) {
    const std::size_t free = free_device_memory(0);
    if (free < leave + block) {
      block /= 2;
      continue;
    }
    try {
      m_blocks->buffers.emplace_back(block);
      m_blocks->bytes += block;
    } catch (const std::exception&) {
      cudaGetLastError();  // the failed cudaMalloc is no error of the code under test
      block /= 2;          // the allocator's granularity or another process: smaller blocks still fit
    }
  }
}

DeviceHog::~DeviceHog() = default;

std::size_t DeviceHog::held_bytes() const {
  return m_blocks->bytes;
}

std::size_t device_free_bytes() {
  return free_device_memory(0);
}

}  // namespace coalesce::testing
