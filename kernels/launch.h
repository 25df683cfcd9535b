// The one way kernels are launched: grid arithmetic, empty launches skipped, every launch checked.
// Include from .cu files only (it uses the <<<>>> syntax).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/cuda_check.h"

namespace coalesce {

struct LaunchShape {
  std::int64_t items = 0;   // work items (particles, words)
  int items_per_block = 0;  // items one block covers (threads x items per thread)
  int threads = 256;        // threads per block
  std::size_t shared_bytes = 0;
};

template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const LaunchShape& shape, cudaStream_t stream, Args&&... args) {
  if (shape.items <= 0) return;  // a zero-block grid is an error in CUDA, and there is nothing to do
  const std::int64_t blocks = (shape.items + shape.items_per_block - 1) / shape.items_per_block;
  kernel<<<static_cast<unsigned>(blocks), static_cast<unsigned>(shape.threads), shape.shared_bytes, stream>>>(
      static_cast<Params>(args)...);
  COALESCE_CUDA_CHECK(cudaGetLastError());
}

}  // namespace coalesce
