// CUDA-OpenGL interop for the render buffer: registered once (write-discard), mapped for each pack
// through a scoped guard. Header free of CUDA so the viewer can include it; built only with CUDA.
#pragma once

#include <cstddef>
#include <stdexcept>

#include "render/gl_api.h"

struct cudaGraphicsResource;
struct CUstream_st;  // cudaStream_t without the CUDA headers

namespace coalesce {

class InteropError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// WriteDiscard: CUDA only writes the buffer (the pack). ReadWrite: CUDA also reads it back after the pack
// (the splat maps it a second time), so the driver must keep its contents across maps.
enum class InteropAccess { WriteDiscard, ReadWrite };

class InteropBuffer {
 public:
  // Registers `buffer` (an existing GL buffer, which must outlive this object). Throws InteropError.
  InteropBuffer(GLuint buffer, InteropAccess access);
  ~InteropBuffer();
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;

  // Mapped for the lifetime of this guard: CUDA may write `data()`; GL must not touch the buffer.
  class Mapping {
   public:
    Mapping(cudaGraphicsResource* resource, CUstream_st* stream);
    ~Mapping();
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    float* data() const { return m_data; }
    std::size_t bytes() const { return m_bytes; }

   private:
    cudaGraphicsResource* m_resource;
    CUstream_st* m_stream;
    float* m_data = nullptr;
    std::size_t m_bytes = 0;
  };

  // Map and unmap on the stream the pack runs on, so GL waits for exactly that work.
  Mapping map(CUstream_st* stream) { return Mapping(m_resource, stream); }

 private:
  cudaGraphicsResource* m_resource = nullptr;
};

}  // namespace coalesce
