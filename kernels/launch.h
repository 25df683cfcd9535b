// The one way kernels are launched: grid arithmetic, empty launches skipped, every launch checked.
// Include from .cu files only (it uses the <<<>>> syntax).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "kernels/cuda_check.h"

namespace coalesce {

// A 1-D grid sized from the work: blocks = ceil(items / items_per_block).
struct LaunchShape {
  std::int64_t items = 0;   // work items (particles, words)
  int items_per_block = 0;  // items one block covers (threads x items per thread)
  int threads = 256;        // threads per block
  std::size_t shared_bytes = 0;
};

// A grid the caller sized itself: a block count from occupancy or for a grid-stride loop, a 2-D tiling.
// Always named at the call, LaunchGrid{blocks, threads}: a bare braced list is a LaunchShape.
struct LaunchGrid {
  dim3 blocks;
  dim3 threads;
  std::size_t shared_bytes = 0;
};

// Grid is only ever LaunchGrid; deduced rather than spelt out so that launch(k, {items, per_block,
// threads}, ...) has one viable overload (a braced list could otherwise initialise either type).
template <class Grid, class... Params, class... Args,
          std::enable_if_t<std::is_same_v<Grid, LaunchGrid>, int> = 0>
void launch(void (*kernel)(Params...), const Grid& grid, cudaStream_t stream, Args&&... args) {
  // A zero-block grid is an error in CUDA, and there is nothing to do.
  if (grid.blocks.x == 0 || grid.blocks.y == 0 || grid.blocks.z == 0) return;
  kernel<<<grid.blocks, grid.threads, grid.shared_bytes, stream>>>(static_cast<Params>(args)...);
  COALESCE_CUDA_CHECK(cudaGetLastError());
}

template <class... Params, class... Args>
void launch(void (*kernel)(Params...), const LaunchShape& shape, cudaStream_t stream, Args&&... args) {
  if (shape.items <= 0) return;
  const std::int64_t blocks = (shape.items + shape.items_per_block - 1) / shape.items_per_block;
  launch(kernel,
         LaunchGrid{static_cast<unsigned>(blocks), static_cast<unsigned>(shape.threads), shape.shared_bytes},
         stream, std::forward<Args>(args)...);
}

}  // namespace coalesce
