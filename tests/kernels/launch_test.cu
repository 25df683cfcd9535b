// kernels/launch.h: a LaunchShape's grid covers its items, a LaunchGrid arrives as given (2-D, shared
// bytes, stream), empty grids are skipped, and a bad configuration throws instead of passing silently.
#include <gtest/gtest.h>

#include <stdexcept>

#include "kernels/cuda_event.h"
#include "kernels/device_buffer.h"
#include "kernels/launch.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

struct SeenGrid {
  unsigned grid[3];
  unsigned block[3];
  unsigned shared_bytes;
  unsigned long long threads_run;  // every thread adds one
};

__global__ void record_grid(SeenGrid* seen) {
  atomicAdd(&seen->threads_run, 1ull);
  if (blockIdx.x + blockIdx.y + blockIdx.z + threadIdx.x + threadIdx.y + threadIdx.z != 0) return;
  unsigned shared = 0;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(shared));
  for (int d = 0; d < 3; ++d) {
    seen->grid[d] = d == 0 ? gridDim.x : d == 1 ? gridDim.y : gridDim.z;
    seen->block[d] = d == 0 ? blockDim.x : d == 1 ? blockDim.y : blockDim.z;
  }
  seen->shared_bytes = shared;
}

// What record_grid saw when launched with `grid` (a LaunchShape or a LaunchGrid) on `stream`.
template <class Grid>
SeenGrid run(const Grid& grid, cudaStream_t stream = nullptr) {
  DeviceBuffer<SeenGrid> seen(1);
  COALESCE_CUDA_CHECK(cudaMemsetAsync(seen.data(), 0, sizeof(SeenGrid), stream));
  launch(record_grid, grid, stream, seen.data());
  SeenGrid host{};
  COALESCE_CUDA_CHECK(cudaMemcpyAsync(&host, seen.data(), sizeof(host), cudaMemcpyDeviceToHost, stream));
  COALESCE_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}

TEST(Launch, ShapeGridIsCeilOfItemsOverItemsPerBlock) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  const int threads = 32 * rng.uniform_int(1, 8);
  const int per_block = threads * rng.uniform_int(1, 4);
  const int items = rng.uniform_int(1, 100'000);
  const SeenGrid seen = run(LaunchShape{items, per_block, threads});
  EXPECT_EQ(seen.grid[0], static_cast<unsigned>((items + per_block - 1) / per_block));
  EXPECT_EQ(seen.grid[1], 1u);
  EXPECT_EQ(seen.block[0], static_cast<unsigned>(threads));
  EXPECT_EQ(seen.shared_bytes, 0u);
  EXPECT_EQ(seen.threads_run, static_cast<unsigned long long>(seen.grid[0]) * threads);
}

TEST(Launch, GridArrivesAsGivenIn2DWithItsSharedBytes) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  const dim3 blocks(rng.uniform_int(1, 40), rng.uniform_int(1, 40));
  const dim3 threads(32, rng.uniform_int(1, 16));
  const std::size_t shared = 16 * rng.uniform_int(0, 256);
  CudaStream stream;
  const SeenGrid seen = run(LaunchGrid{blocks, threads, shared}, stream.get());
  EXPECT_EQ(seen.grid[0], blocks.x);
  EXPECT_EQ(seen.grid[1], blocks.y);
  EXPECT_EQ(seen.grid[2], 1u);
  EXPECT_EQ(seen.block[0], threads.x);
  EXPECT_EQ(seen.block[1], threads.y);
  EXPECT_EQ(seen.shared_bytes, shared);
  EXPECT_EQ(seen.threads_run, 1ull * blocks.x * blocks.y * threads.x * threads.y);
}

TEST(Launch, EmptyGridsAreSkippedNotErrors) {
  COALESCE_REQUIRE_CUDA();
  EXPECT_EQ(run(LaunchShape{0, 256, 256}).threads_run, 0u);
  EXPECT_EQ(run(LaunchGrid{dim3(0, 4), 32}).threads_run, 0u);
  EXPECT_EQ(run(LaunchGrid{dim3(4, 0), 32}).threads_run, 0u);
}

TEST(Launch, BadConfigurationThrowsAndLeavesTheNextLaunchWorking) {
  COALESCE_REQUIRE_CUDA();
  EXPECT_THROW(run(LaunchGrid{1, 4096}), std::runtime_error);             // over 1024 threads per block
  EXPECT_THROW(run(LaunchShape{1, 1, 1, 1u << 30}), std::runtime_error);  // 1 GiB of shared memory
  EXPECT_EQ(run(LaunchGrid{2, 64}).grid[0], 2u);
}

}  // namespace
}  // namespace coalesce
