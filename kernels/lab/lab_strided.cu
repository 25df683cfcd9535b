// Strided and misaligned copies (articles 002, 003, 004): how many sectors a warp touches per useful byte.
#include <string>

#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"

namespace coalesce::lab {
namespace {

__global__ void strided_copy(const float* in, float* out, std::int64_t n_out, int stride) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i < n_out) out[i] = in[i * stride];
}

__global__ void offset_copy(const float* in, float* out, std::int64_t n_out, int offset) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i < n_out) out[i] = in[i + offset];
}

void launch_strided(const float* in, float* out, std::int64_t n_out, int stride) {
  launch(strided_copy, {n_out, kBlock, kBlock}, kLabStream, in, out, n_out, stride);
}

void launch_offset(const float* in, float* out, std::int64_t n_out, int offset) {
  launch(offset_copy, {n_out, kBlock, kBlock}, kLabStream, in, out, n_out, offset);
}

struct ShiftedValue {
  std::uint32_t seed;
  std::int64_t scale;
  std::int64_t shift;
  __device__ float operator()(std::int64_t i) const { return lab_value(seed, i * scale + shift); }
};

// Article 004's figures, converted from GiB/s (x 1.073741824) to GB/s.
std::string strided_article(int stride) {
  switch (stride) {
    case 1:
      return "H100 (art. 004): 2230 GiB/s = 2395 GB/s";
    case 2:
      return "H100 (art. 004): 1745 GiB/s = 1873 GB/s";
    case 4:
      return "H100 (art. 004): 1157 GiB/s = 1242 GB/s";
    case 8:
      return "H100 (art. 004): 645 GiB/s = 693 GB/s";
    case 32:
      return "art. 000/003: 32 sectors per warp request, 12.5% useful";
    default:
      return "";
  }
}

constexpr int kMaxOffset = 32;

}  // namespace

std::vector<LabRow> run_strided_experiment(const LabContext& context) {
  const std::int64_t n = context.settings.elements();
  DeviceBuffer<float> in(n), out(n);
  fill_values(in.data(), n, context.settings.seed);
  std::vector<LabRow> rows;
  for (int stride : {1, 2, 4, 8, 16, 32}) {
    const std::int64_t n_out = n / stride;
    poison(out.data(), n_out * sizeof(float));
    launch_strided(in.data(), out.data(), n_out, stride);
    const bool ok = device_check(out.data(), n_out, ShiftedValue{context.settings.seed, stride, 0});
    const TimedRow ms =
        timed_row([&] { launch_strided(in.data(), out.data(), n_out, stride); }, context);
    rows.push_back(
        make_row(context, "strided", "stride " + std::to_string(stride), ms, 2.0 * n_out * 4,
                 "useful bytes: 2 x (N/stride) x 4 B (each copied element read once, written once)",
                 strided_article(stride), ok));
  }
  return rows;
}

std::vector<LabRow> run_offset_experiment(const LabContext& context) {
  const std::int64_t n = context.settings.elements();
  const std::int64_t n_out = n - kMaxOffset;  // the same element count for every offset
  DeviceBuffer<float> in(n), out(n_out);
  fill_values(in.data(), n, context.settings.seed);
  std::vector<LabRow> rows;
  for (int offset : {0, 1, 2, 4, 8, 16, 32}) {
    poison(out.data(), n_out * sizeof(float));
    launch_offset(in.data(), out.data(), n_out, offset);
    const bool ok = device_check(out.data(), n_out, ShiftedValue{context.settings.seed, 1, offset});
    const TimedRow ms =
        timed_row([&] { launch_offset(in.data(), out.data(), n_out, offset); }, context);
    rows.push_back(
        make_row(context, "offset", "read offset " + std::to_string(offset) + " floats", ms, 2.0 * n_out * 4,
                 "2 x (N-32) x 4 B (read misaligned by the offset, write aligned)",
                 offset == 1 ? "art. 002: misalignment turns one access into several transactions" : "", ok));
  }
  return rows;
}

std::vector<float> run_strided_copy(const std::vector<float>& in, int stride) {
  const std::int64_t n_out = static_cast<std::int64_t>(in.size()) / stride;
  DeviceBuffer<float> d_in = upload(in);
  DeviceBuffer<float> out(n_out);
  poison(out.data(), n_out * sizeof(float));
  launch_strided(d_in.data(), out.data(), n_out, stride);
  return download(out.data(), n_out);
}

std::vector<float> run_offset_copy(const std::vector<float>& in, int offset) {
  const std::int64_t n_out = static_cast<std::int64_t>(in.size()) - offset;
  DeviceBuffer<float> d_in = upload(in);
  DeviceBuffer<float> out(n_out);
  poison(out.data(), n_out * sizeof(float));
  launch_offset(d_in.data(), out.data(), n_out, offset);
  return download(out.data(), n_out);
}

}  // namespace coalesce::lab
