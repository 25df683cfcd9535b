// The CUDA resources of the splat path that kernels/ has no owner for, each RAII: the GL texture's interop
// registration (mapped only around each copy), and a ring of CUDA event pairs read without waiting. The
// light buffer is a kernels/device_buffer.h DeviceBuffer. Built only with CUDA (render/CMakeLists.txt).
#pragma once

#include <array>
#include <optional>

#include <cuda_runtime.h>

#include "kernels/cuda_event.h"
#include "render/gl_api.h"
#include "sim/common.h"

struct cudaGraphicsResource;

namespace coalesce {

// A GL texture registered with cudaGraphicsGLRegisterImage (write-discard); the texture must outlive it.
// Throws InteropError (render/interop_buffer.h) when the driver refuses the registration.
class RegisteredImage {
 public:
  explicit RegisteredImage(GLuint texture);
  ~RegisteredImage();
  RegisteredImage(const RegisteredImage&) = delete;
  RegisteredImage& operator=(const RegisteredImage&) = delete;

  // Copies width x height Float4 (device memory, rows packed) into texture level 0, mapped and unmapped
  // on `stream` around the copy.
  void copy_from(const Float4* light, int width, int height, cudaStream_t stream);

 private:
  cudaGraphicsResource* m_resource = nullptr;
};

// GPU time of one span of stream work per frame, from pairs of CUDA events read a few frames later (the
// GL twin is render/gpu_timer.h; kernels/timing_ring.h times kernels and is not linked into render/).
class CudaEventRing {
 public:
  void begin(cudaStream_t stream);
  void end(cudaStream_t stream);
  std::optional<double> poll();  // the newest finished span since the last call, never waits
  double wait_last();            // blocks until the last span ends: start-up measurements only

 private:
  static constexpr int kRing = 4;
  std::array<CudaEvent, kRing> m_start;
  std::array<CudaEvent, kRing> m_stop;
  std::array<bool, kRing> m_pending{};
  int m_next = 0;
  int m_oldest = 0;
  int m_last = -1;
  bool m_open = false;
};

}  // namespace coalesce
