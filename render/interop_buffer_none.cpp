// InteropBuffer for builds without CUDA: registration always fails, so the viewer takes the copy path.
#include "render/interop_buffer.h"

namespace coalesce {

InteropBuffer::InteropBuffer(GLuint, InteropAccess) {
  throw InteropError("this build has no CUDA-GL interop");
}
InteropBuffer::~InteropBuffer() = default;
InteropBuffer::Mapping::Mapping(cudaGraphicsResource* resource, CUstream_st* stream)
    : m_resource(resource), m_stream(stream) {
  throw InteropError("this build has no CUDA-GL interop");
}
InteropBuffer::Mapping::~Mapping() = default;

}  // namespace coalesce
