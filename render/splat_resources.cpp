// The splat path's CUDA owners (splat_resources.h); every call checked, destructors only log.
#include "render/splat_resources.h"

#include <string>

// glad/gl.h (via splat_resources.h) must come before cuda_gl_interop.h, which includes <GL/gl.h>.
#include <cuda_gl_interop.h>

#include "kernels/cuda_check.h"
#include "render/interop_buffer.h"

namespace coalesce {

RegisteredImage::RegisteredImage(GLuint texture) {
  const cudaError_t status =
      cudaGraphicsGLRegisterImage(&m_resource, texture, GL_TEXTURE_2D, cudaGraphicsRegisterFlagsWriteDiscard);
  if (status != cudaSuccess) {
    (void)cudaGetLastError();  // not sticky: clear it so later CUDA calls do not report it
    throw InteropError(std::string("cudaGraphicsGLRegisterImage: ") + cudaGetErrorString(status));
  }
}

RegisteredImage::~RegisteredImage() {
  COALESCE_CUDA_CHECK_PRINT(cudaGraphicsUnregisterResource(m_resource));
}

void RegisteredImage::copy_from(const Float4* light, int width, int height, cudaStream_t stream) {
  COALESCE_CUDA_CHECK(cudaGraphicsMapResources(1, &m_resource, stream));
  // Unmapped on every exit, so GL can sample the texture after a failed copy too.
  struct Unmap {
    cudaGraphicsResource** resource;
    cudaStream_t stream;
    ~Unmap() { COALESCE_CUDA_CHECK_PRINT(cudaGraphicsUnmapResources(1, resource, stream)); }
  } unmap{&m_resource, stream};
  cudaArray_t array = nullptr;
  COALESCE_CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&array, m_resource, 0, 0));
  const std::size_t row_bytes = static_cast<std::size_t>(width) * sizeof(Float4);
  COALESCE_CUDA_CHECK(cudaMemcpy2DToArrayAsync(array, 0, 0, light, row_bytes, row_bytes,
                                               static_cast<std::size_t>(height), cudaMemcpyDeviceToDevice,
                                               stream));
}

void CudaEventRing::begin(cudaStream_t stream) {
  // Every pair still pending: the GPU is kRing frames behind; this frame goes unmeasured.
  if (m_open || m_pending[static_cast<std::size_t>(m_next)]) return;
  m_start[static_cast<std::size_t>(m_next)].record(stream);
  m_open = true;
}

void CudaEventRing::end(cudaStream_t stream) {
  if (!m_open) return;
  m_stop[static_cast<std::size_t>(m_next)].record(stream);
  m_pending[static_cast<std::size_t>(m_next)] = true;
  m_last = m_next;
  m_next = (m_next + 1) % kRing;
  m_open = false;
}

std::optional<double> CudaEventRing::poll() {
  std::optional<double> newest;
  while (m_pending[static_cast<std::size_t>(m_oldest)]) {
    const std::size_t i = static_cast<std::size_t>(m_oldest);
    const cudaError_t ready = cudaEventQuery(m_stop[i].get());
    if (ready == cudaErrorNotReady) break;
    COALESCE_CUDA_CHECK(ready);
    newest = m_stop[i].elapsed_since(m_start[i]);
    m_pending[i] = false;
    m_oldest = (m_oldest + 1) % kRing;
  }
  return newest;
}

double CudaEventRing::wait_last() {
  if (m_last < 0 || !m_pending[static_cast<std::size_t>(m_last)]) return 0.0;
  const std::size_t last = static_cast<std::size_t>(m_last);
  COALESCE_CUDA_CHECK(cudaEventSynchronize(m_stop[last].get()));
  const double ms = m_stop[last].elapsed_since(m_start[last]);
  (void)poll();  // the ring moves on past the spans now finished
  return ms;
}

}  // namespace coalesce
