// Matrix transpose at side/2 and side (4096^2 and 8192^2 by default): the kernels against cublasSgeam
// and a same-size copy (articles 000, 003, 004).
#include <cublas_v2.h>

#include <cstdio>
#include <iterator>
#include <stdexcept>
#include <string>

#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"
#include "kernels/lab/lab_transpose_kernels.cuh"

namespace coalesce::lab {
namespace {

// Reads coalesced, writes strided by `rows` floats: one 32-byte sector per lane per store.
__global__ void transpose_naive(const float* in, float* out, int rows, int cols) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[std::size_t(x) * rows + y] = in[std::size_t(y) * cols + x];
}

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string("cuBLAS failed: ") + what + " (status " +
                             std::to_string(int(status)) + ")");
}

// Owns one cuBLAS handle; created once per experiment so its set-up stays out of the timings.
class CublasHandle {
 public:
  CublasHandle() { check_cublas(cublasCreate(&m_handle), "cublasCreate"); }
  ~CublasHandle() { cublasDestroy(m_handle); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return m_handle; }

 private:
  cublasHandle_t m_handle = nullptr;
};

// Row-major rows x cols is column-major cols x rows: C (rows x cols, column-major) = A^T is our transpose.
// B is only scaled by beta = 0; it points at the finite input so a B that is read cannot inject NaN.
void sgeam_transpose(cublasHandle_t handle, const float* in, float* out, int rows, int cols) {
  const float one = 1.0f, zero = 0.0f;
  check_cublas(
      cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, in, rows, out, rows),
      "cublasSgeam");
}

unsigned tiles(int extent, int tile) {
  return static_cast<unsigned>((extent + tile - 1) / tile);
}

void launch_transpose(TransposeKernel kernel, const float* in, float* out, int rows, int cols,
                      cublasHandle_t handle) {
  // Each grid covers the matrix in tiles of the kernel's own size: x over columns, y over rows.
  switch (kernel) {
    case TransposeKernel::Naive:
      launch(transpose_naive, LaunchGrid{dim3(tiles(cols, 32), tiles(rows, 8)), dim3(32, 8)}, kLabStream,
             in, out, rows, cols);
      break;
    case TransposeKernel::Tiled:
      launch(transpose_tiled<0>, LaunchGrid{dim3(tiles(cols, 32), tiles(rows, 32)), dim3(32, 32)},
             kLabStream, in, out, rows, cols);
      break;
    case TransposeKernel::TiledPadded:
      launch(transpose_tiled<1>, LaunchGrid{dim3(tiles(cols, 32), tiles(rows, 32)), dim3(32, 32)},
             kLabStream, in, out, rows, cols);
      break;
    case TransposeKernel::Tiled32x8:
      launch(transpose_tile_rows<32, 8>, LaunchGrid{dim3(tiles(cols, 32), tiles(rows, 32)), dim3(32, 8)},
             kLabStream, in, out, rows, cols);
      break;
    case TransposeKernel::Tile64:
      launch(transpose_tile_rows<64, 8>, LaunchGrid{dim3(tiles(cols, 64), tiles(rows, 64)), dim3(32, 8)},
             kLabStream, in, out, rows, cols);
      break;
    case TransposeKernel::Tile64Block512:
      launch(transpose_tile_rows<64, 16>, LaunchGrid{dim3(tiles(cols, 64), tiles(rows, 64)), dim3(32, 16)},
             kLabStream, in, out, rows, cols);
      break;
    case TransposeKernel::Sgeam:
      sgeam_transpose(handle, in, out, rows, cols);
      break;
  }
}

// out (cols x rows) at j = c * rows + r holds input element (r, c) = lab_value(seed, r * cols + c).
struct TransposedValue {
  std::uint32_t seed;
  int rows, cols;
  __device__ float operator()(std::int64_t j) const {
    return lab_value(seed, (j % rows) * std::int64_t(cols) + j / rows);
  }
};

struct SameValue {
  std::uint32_t seed;
  __device__ float operator()(std::int64_t j) const { return lab_value(seed, j); }
};

struct Variant {
  TransposeKernel kernel;
  const char* name;
  const char* article;
};

const Variant kVariants[] = {
    {TransposeKernel::Naive, "naive",
     "A100 4096^2 (art. 003): 380 GB/s; H100 2048^2 (art. 004): 425 GiB/s = 456 GB/s"},
    {TransposeKernel::Tiled, "tiled 32x32, no pad",
     "A100 (003): 920 GB/s; H100 (004): 1027 GiB/s = 1102 GB/s"},
    {TransposeKernel::TiledPadded, "tiled 32x32 +pad",
     "A100 (003): 1590 GB/s; H100 (004): 1968 GiB/s = 2113 GB/s"},
    {TransposeKernel::Tiled32x8, "tiled 32x8 block, 4 rows/thread +pad", ""},
    {TransposeKernel::Tile64, "best: 64x64 tile, 16 loads/thread +pad", "our target: >= cublasSgeam"},
    {TransposeKernel::Tile64Block512, "64x64 tile, 32x16 block, 8 loads/thread +pad",
     "another candidate for best"},
    {TransposeKernel::Sgeam, "cublasSgeam", "A100 4096^2 (art. 003): 1710 GB/s"},
};

// On the Sgeam row: which of our kernels was fastest at this size, and by how much vs Sgeam (our target).
void note_best_vs_sgeam(std::vector<LabRow>& rows, std::size_t first) {
  const LabRow* best = nullptr;
  LabRow* sgeam = nullptr;
  for (std::size_t i = first; i < rows.size(); ++i) {
    if (rows[i].variant.rfind("cublasSgeam", 0) == 0)
      sgeam = &rows[i];
    else if (best == nullptr || rows[i].gbps > best->gbps)
      best = &rows[i];
  }
  if (best == nullptr || sgeam == nullptr || sgeam->gbps <= 0) return;
  char note[160];
  std::snprintf(note, sizeof(note), "fastest own kernel: %s at %.1f%% of Sgeam", best->variant.c_str(),
                100.0 * best->gbps / sgeam->gbps);
  sgeam->note = note;
}

const char* const kFormula = "2 x side^2 x 4 B (read the matrix once, write it once)";

}  // namespace

std::vector<LabRow> run_transpose_experiment(const LabContext& context) {
  CublasHandle handle;
  std::vector<LabRow> rows;
  for (int side : {context.settings.side / 2, context.settings.side}) {
    const std::int64_t n = std::int64_t(side) * side;
    const std::string size = " " + std::to_string(side) + "^2";
    DeviceBuffer<float> in(n), out(n);
    fill_values(in.data(), n, context.settings.seed);
    for (const Variant& v : kVariants) {
      poison(out.data(), n * sizeof(float));
      launch_transpose(v.kernel, in.data(), out.data(), side, side, handle.get());
      const bool ok = device_check(out.data(), n, TransposedValue{context.settings.seed, side, side});
      const TimedRow ms =
          timed_row([&] { launch_transpose(v.kernel, in.data(), out.data(), side, side, handle.get()); }, context);
      rows.push_back(make_row(context, "transpose", v.name + size, ms, 2.0 * n * 4, kFormula, v.article, ok));
    }
    note_best_vs_sgeam(rows, rows.size() - std::size(kVariants));
    const TimedRow ms = timed_row(
        [&] {
          COALESCE_CUDA_CHECK(
              cudaMemcpyAsync(out.data(), in.data(), n * sizeof(float), cudaMemcpyDeviceToDevice));
        }, context);
    const bool ok = device_check(out.data(), n, SameValue{context.settings.seed});
    rows.push_back(
        make_row(context, "transpose", "copy (same bytes)" + size, ms, 2.0 * n * 4, kFormula, "", ok));
  }
  return rows;
}

std::vector<float> run_transpose(TransposeKernel kernel, const std::vector<float>& in, int rows, int cols) {
  CublasHandle handle;
  DeviceBuffer<float> d_in = upload(in);
  DeviceBuffer<float> out(in.size());
  poison(out.data(), in.size() * sizeof(float));
  launch_transpose(kernel, d_in.data(), out.data(), rows, cols, handle.get());
  return download(out.data(), in.size());
}

}  // namespace coalesce::lab
