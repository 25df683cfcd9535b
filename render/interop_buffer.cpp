// cudaGraphicsGLRegisterBuffer ownership and the map/unmap guard (built only when CUDA is).
#include "render/interop_buffer.h"

#include <cstdio>
#include <string>

// glad/gl.h (via interop_buffer.h) must come before cuda_gl_interop.h, which includes <GL/gl.h>.
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

namespace coalesce {

InteropBuffer::InteropBuffer(GLuint buffer, InteropAccess access) {
  const unsigned flags = access == InteropAccess::WriteDiscard ? cudaGraphicsRegisterFlagsWriteDiscard
                                                               : cudaGraphicsRegisterFlagsNone;
  const cudaError_t status = cudaGraphicsGLRegisterBuffer(&m_resource, buffer, flags);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky-free error so later CUDA calls do not see it
    throw InteropError(std::string("cudaGraphicsGLRegisterBuffer: ") + cudaGetErrorString(status));
  }
}

InteropBuffer::~InteropBuffer() {
  const cudaError_t status = cudaGraphicsUnregisterResource(m_resource);
  if (status != cudaSuccess) {
    std::fprintf(stderr, "coalesce: cudaGraphicsUnregisterResource: %s\n", cudaGetErrorString(status));
  }
}

InteropBuffer::Mapping::Mapping(cudaGraphicsResource* resource, CUstream_st* stream)
    : m_resource(resource), m_stream(stream) {
  cudaError_t status = cudaGraphicsMapResources(1, &m_resource, m_stream);
  if (status != cudaSuccess)
    throw InteropError(std::string("cudaGraphicsMapResources: ") + cudaGetErrorString(status));
  void* pointer = nullptr;
  status = cudaGraphicsResourceGetMappedPointer(&pointer, &m_bytes, m_resource);
  if (status != cudaSuccess) {
    // The first error is the one to report; an unmap failure here would only hide it.
    (void)cudaGraphicsUnmapResources(1, &m_resource, m_stream);
    throw InteropError(std::string("cudaGraphicsResourceGetMappedPointer: ") + cudaGetErrorString(status));
  }
  m_data = static_cast<float*>(pointer);
}

InteropBuffer::Mapping::~Mapping() {
  const cudaError_t status = cudaGraphicsUnmapResources(1, &m_resource, m_stream);
  if (status != cudaSuccess) {
    std::fprintf(stderr, "coalesce: cudaGraphicsUnmapResources: %s\n", cudaGetErrorString(status));
  }
}

}  // namespace coalesce
