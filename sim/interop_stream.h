// What the viewer's CUDA-OpenGL interop needs of a GPU backend: the stream its work is queued on, so the
// render buffer is mapped on it (app/viewer/viewer_render_path.cpp). sim/ never includes the CUDA headers.
#pragma once

struct CUstream_st;  // cudaStream_t

namespace coalesce {

class InteropStream {
 public:
  virtual ~InteropStream() = default;
  virtual CUstream_st* native_stream() const = 0;
};

}  // namespace coalesce
