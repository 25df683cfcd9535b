// DeviceBuffer<T>: move-only owner of a cudaMalloc'ed array; the destructor logs instead of throwing.
#pragma once

#include <cstddef>
#include <utility>

#include "kernels/cuda_check.h"

namespace coalesce {

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : m_count(count) {
    if (count > 0) COALESCE_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&m_data), count * sizeof(T)));
  }
  ~DeviceBuffer() { release(); }

  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : m_data(std::exchange(other.m_data, nullptr)), m_count(std::exchange(other.m_count, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      release();
      m_data = std::exchange(other.m_data, nullptr);
      m_count = std::exchange(other.m_count, 0);
    }
    return *this;
  }

  T* data() const { return m_data; }
  std::size_t size() const { return m_count; }
  std::size_t bytes() const { return m_count * sizeof(T); }
  bool empty() const { return m_count == 0; }

 private:
  void release() {
    if (m_data != nullptr) COALESCE_CUDA_CHECK_PRINT(cudaFree(m_data));
    m_data = nullptr;
    m_count = 0;
  }

  T* m_data = nullptr;
  std::size_t m_count = 0;
};

}  // namespace coalesce
