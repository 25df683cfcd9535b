// The lab's tiled transpose kernels: 32x32 tiles with and without padding, the classic 32x8 block doing
// 4 rows each, and 64x64 tiles with 16 loads in flight per thread. in: rows x cols, out: cols x rows.
// Templates only: a non-template __global__ defined here would be defined again by every includer.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace coalesce::lab {

// One element per thread, 32x32 threads (article 004's kernel); kPad = 0 gives 32-way conflicts on the
// column reads of the tile, kPad = 1 spreads them over all 32 banks.
template <int kPad>
__global__ void transpose_tiled(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][32 + kPad];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[std::size_t(y) * cols + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < rows && y < cols) out[std::size_t(y) * rows + x] = tile[threadIdx.x][threadIdx.y];
}

// Each block moves a kTile x kTile tile with 32 x kBlockRows threads, so every thread holds
// (kTile/32) * (kTile/kBlockRows) values; all of its loads are issued before the first shared store.
template <int kTile, int kBlockRows>
__global__ void __launch_bounds__(32 * kBlockRows)
    transpose_tile_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  constexpr int kCols = kTile / 32;          // column chunks of 32 lanes
  constexpr int kRows = kTile / kBlockRows;  // row passes of the block's warps
  __shared__ float tile[kTile][kTile + 1];   // +1: row writes and column reads both hit 32 banks
  const int x0 = blockIdx.x * kTile;
  const int y0 = blockIdx.y * kTile;
  float v[kRows][kCols];
#pragma unroll
  for (int p = 0; p < kRows; ++p)
#pragma unroll
    for (int h = 0; h < kCols; ++h) {
      const int y = y0 + threadIdx.y + kBlockRows * p;
      const int x = x0 + threadIdx.x + 32 * h;
      v[p][h] = (x < cols && y < rows) ? in[std::size_t(y) * cols + x] : 0.0f;
    }
#pragma unroll
  for (int p = 0; p < kRows; ++p)
#pragma unroll
    for (int h = 0; h < kCols; ++h) tile[threadIdx.y + kBlockRows * p][threadIdx.x + 32 * h] = v[p][h];
  __syncthreads();
#pragma unroll
  for (int p = 0; p < kRows; ++p)
#pragma unroll
    for (int h = 0; h < kCols; ++h) {
      const int out_row = x0 + threadIdx.y + kBlockRows * p;  // a column of the input
      const int out_col = y0 + threadIdx.x + 32 * h;          // a row of the input
      if (out_row < cols && out_col < rows)
        out[std::size_t(out_row) * rows + out_col] = tile[threadIdx.x + 32 * h][threadIdx.y + kBlockRows * p];
    }
}

}  // namespace coalesce::lab
