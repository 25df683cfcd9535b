// RAII CUDA events and streams (move-only); destructors log instead of throwing.
#pragma once

#include <utility>

#include "kernels/cuda_check.h"

namespace coalesce {

class CudaEvent {
 public:
  explicit CudaEvent(unsigned flags = cudaEventDefault) {
    COALESCE_CUDA_CHECK(cudaEventCreateWithFlags(&m_event, flags));
  }
  ~CudaEvent() {
    if (m_event != nullptr) COALESCE_CUDA_CHECK_PRINT(cudaEventDestroy(m_event));
  }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  CudaEvent(CudaEvent&& other) noexcept : m_event(std::exchange(other.m_event, nullptr)) {}
  CudaEvent& operator=(CudaEvent&& other) noexcept {
    std::swap(m_event, other.m_event);
    return *this;
  }

  cudaEvent_t get() const { return m_event; }
  void record(cudaStream_t stream) { COALESCE_CUDA_CHECK(cudaEventRecord(m_event, stream)); }

  // Milliseconds from `start` to this event; both must have completed.
  float elapsed_since(const CudaEvent& start) const {
    float ms = 0.0f;
    COALESCE_CUDA_CHECK(cudaEventElapsedTime(&ms, start.m_event, m_event));
    return ms;
  }

 private:
  cudaEvent_t m_event = nullptr;
};

class CudaStream {
 public:
  // A blocking stream, so work on the legacy default stream (e.g. GL interop map/unmap) stays ordered with
  // it.
  CudaStream() { COALESCE_CUDA_CHECK(cudaStreamCreate(&m_stream)); }
  ~CudaStream() {
    if (m_stream != nullptr) COALESCE_CUDA_CHECK_PRINT(cudaStreamDestroy(m_stream));
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  CudaStream(CudaStream&& other) noexcept : m_stream(std::exchange(other.m_stream, nullptr)) {}
  CudaStream& operator=(CudaStream&& other) noexcept {
    std::swap(m_stream, other.m_stream);
    return *this;
  }

  cudaStream_t get() const { return m_stream; }
  void synchronize() const { COALESCE_CUDA_CHECK(cudaStreamSynchronize(m_stream)); }

 private:
  cudaStream_t m_stream = nullptr;
};

}  // namespace coalesce
