// Copy experiments: the cudaMemcpy ceiling, the coalesced scalar copy, scalar vs float4, and grid-stride
// vs one thread per element (articles 000 and 004).
#include <string>

#include "kernels/device_probe.h"
#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"

namespace coalesce::lab {
namespace {

__global__ void copy_scalar(const float* in, float* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// n4 = n / 4 float4 elements; cudaMalloc's 256-byte alignment makes the casts legal.
__global__ void copy_float4(const float4* in, float4* out, std::int64_t n4) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

__global__ void copy_grid_stride(const float* in, float* out, std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::int64_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

// A grid-stride grid that exactly fills the device once (resident blocks x SMs).
unsigned resident_blocks() {
  int device = 0, sms = 0, per_sm = 0;
  COALESCE_CUDA_CHECK(cudaGetDevice(&device));
  COALESCE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  COALESCE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, copy_grid_stride, kBlock, 0));
  return static_cast<unsigned>(sms * std::max(per_sm, 1));
}

void launch_copy(CopyKernel kernel, const float* in, float* out, std::int64_t n,
                 unsigned grid_stride_blocks) {
  switch (kernel) {
    case CopyKernel::Coalesced:
    case CopyKernel::OneElementPerThread:
      launch(copy_scalar, {n, kBlock, kBlock}, kLabStream, in, out, n);
      break;
    case CopyKernel::Float4:
      launch(copy_float4, {n / 4, kBlock, kBlock}, kLabStream, reinterpret_cast<const float4*>(in),
             reinterpret_cast<float4*>(out), n / 4);
      break;
    case CopyKernel::GridStride:
      launch(copy_grid_stride, LaunchGrid{grid_stride_blocks, kBlock}, kLabStream, in, out, n);
      break;
  }
}

// Identity check: out[i] must equal the hashed input value at i.
struct SameValue {
  std::uint32_t seed;
  __device__ float operator()(std::int64_t i) const { return lab_value(seed, i); }
};

const char* const kCopyFormula = "2 x N x 4 B (read N floats, write N floats)";

LabRow time_copy(const LabContext& context, const char* experiment, const std::string& variant,
                 CopyKernel kernel, const std::string& article) {
  const std::int64_t n = context.settings.elements();
  DeviceBuffer<float> in(n), out(n);
  fill_values(in.data(), n, context.settings.seed);
  poison(out.data(), n * sizeof(float));
  const unsigned gs_blocks = resident_blocks();
  launch_copy(kernel, in.data(), out.data(), n, gs_blocks);
  const bool ok = device_check(out.data(), n, SameValue{context.settings.seed});
  const TimedRow ms =
      timed_row([&] { launch_copy(kernel, in.data(), out.data(), n, gs_blocks); }, context);
  return make_row(context, experiment, variant, ms, 2.0 * n * 4, kCopyFormula, article, ok);
}

}  // namespace

double measure_copy_ceiling(const LabSettings& settings) {
  return measure_copy_gbps(settings.elements() * sizeof(float),
                           TimingPlan{settings.warmup_calls, settings.warmup_ms, settings.repeats});
}

std::vector<LabRow> run_copy_experiment(const LabContext& context) {
  const std::int64_t n = context.settings.elements();
  DeviceBuffer<float> in(n), out(n);
  fill_values(in.data(), n, context.settings.seed);
  poison(out.data(), n * sizeof(float));
  COALESCE_CUDA_CHECK(cudaMemcpy(out.data(), in.data(), n * sizeof(float), cudaMemcpyDeviceToDevice));
  const bool ok = device_check(out.data(), n, SameValue{context.settings.seed});
  const TimedRow ms = timed_row(
      [&] {
        COALESCE_CUDA_CHECK(
            cudaMemcpyAsync(out.data(), in.data(), n * sizeof(float), cudaMemcpyDeviceToDevice));
      }, context);
  std::vector<LabRow> rows;
  rows.push_back(make_row(context, "copy", "cudaMemcpy D2D", ms, 2.0 * n * 4, kCopyFormula,
                          "H100 (art. 004): theoretical peak 3352 GB/s (3122 GiB/s)", ok));
  rows.push_back(time_copy(context, "copy", "coalesced kernel", CopyKernel::Coalesced,
                           "H100 (art. 004): coalesced copy 2230 GiB/s = 2395 GB/s (71% of peak)"));
  return rows;
}

std::vector<LabRow> run_float4_experiment(const LabContext& context) {
  return {time_copy(context, "float4", "scalar float", CopyKernel::Coalesced,
                    "art. 000 (no GPU named): scalar ~60% of peak bandwidth"),
          time_copy(context, "float4", "float4", CopyKernel::Float4,
                    "art. 000 (no GPU named): float4 ~90% of peak, 1.5-2x over scalar")};
}

std::vector<LabRow> run_gridstride_experiment(const LabContext& context) {
  return {time_copy(context, "gridstride", "one thread per element", CopyKernel::OneElementPerThread,
                    "art. 000 (no GPU named): baseline"),
          time_copy(context, "gridstride", "grid-stride, resident grid", CopyKernel::GridStride,
                    "art. 000 (no GPU named): grid-stride 1.2-1.5x")};
}

std::vector<float> run_copy_kernel(CopyKernel kernel, const std::vector<float>& in) {
  const std::int64_t n = static_cast<std::int64_t>(in.size());
  DeviceBuffer<float> d_in = upload(in);
  DeviceBuffer<float> out(in.size());
  poison(out.data(), in.size() * sizeof(float));
  // A small grid-stride grid makes each thread loop several times even on test sizes.
  launch_copy(kernel, d_in.data(), out.data(), n, 3);
  return download(out.data(), in.size());
}

}  // namespace coalesce::lab
