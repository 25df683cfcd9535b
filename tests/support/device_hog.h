// GPU tests of running out of device memory: holds the device's free memory but about `leave` bytes until
// destroyed, so the code under test meets a full device. Built with cuda_skip_*.cpp: without CUDA it holds
// nothing (those tests skip before making one).
#pragma once

#include <cstddef>
#include <memory>

namespace coalesce::testing {

class DeviceHog {
 public:
  explicit DeviceHog(std::size_t leave);
  ~DeviceHog();
  DeviceHog(const DeviceHog&) = delete;
  DeviceHog& operator=(const DeviceHog&) = delete;
  std::size_t held_bytes() const;

 private:
  struct Blocks;
  std::unique_ptr<Blocks> m_blocks;
};

// Free memory on CUDA device 0 now (0 without CUDA).
std::size_t device_free_bytes();

}  // namespace coalesce::testing
