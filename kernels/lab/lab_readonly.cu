// Read paths (article 002): plain vs const __restrict__ vs __ldg loads on a 5-point stencil whose inputs
// are reused by neighbours, and coefficients from __constant__ (broadcast) vs global vs divergent constant.
#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"

namespace coalesce::lab {
namespace {

// A device symbol because __constant__ data can only live at namespace scope; written once per run.
__constant__ float c_coefficients[kPolynomialTerms];

__host__ __device__ inline std::int64_t clamp_index(std::int64_t i, std::int64_t n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

// Plain pointers: the compiler must assume out may alias in, so it cannot use the read-only path.
__global__ void stencil_plain(const float* in, float* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int d = -2; d <= 2; ++d) s += in[clamp_index(i + d, n)];
  out[i] = s;
}

__global__ void stencil_restrict(const float* __restrict__ in, float* __restrict__ out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int d = -2; d <= 2; ++d) s += in[clamp_index(i + d, n)];
  out[i] = s;
}

__global__ void stencil_ldg(const float* in, float* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int d = -2; d <= 2; ++d) s += __ldg(in + clamp_index(i + d, n));
  out[i] = s;
}

template <CoefficientPath kPath>
__global__ void polynomial(const float* in, float* out, const float* coefficients, std::int64_t n) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const float x = in[i];
  const int shift = kPath == CoefficientPath::ConstantDivergent ? int(i % kPolynomialTerms) : 0;
  float acc = 0;
#pragma unroll
  for (int k = kPolynomialTerms - 1; k >= 0; --k) {
    // Same index in every lane: one broadcast; divergent: up to 16 distinct addresses, served one by one.
    const float c =
        kPath == CoefficientPath::Global ? coefficients[k] : c_coefficients[(k + shift) % kPolynomialTerms];
    acc = acc * x + c;
  }
  out[i] = acc;
}

void launch_stencil(ReadPath path, const float* in, float* out, std::int64_t n) {
  switch (path) {
    case ReadPath::Plain:
      launch(stencil_plain, {n, kBlock, kBlock}, kLabStream, in, out, n);
      break;
    case ReadPath::Restrict:
      launch(stencil_restrict, {n, kBlock, kBlock}, kLabStream, in, out, n);
      break;
    case ReadPath::Ldg:
      launch(stencil_ldg, {n, kBlock, kBlock}, kLabStream, in, out, n);
      break;
  }
}

void launch_polynomial(CoefficientPath path, const float* in, float* out, const float* coefficients,
                       std::int64_t n) {
  switch (path) {
    case CoefficientPath::Constant:
      launch(polynomial<CoefficientPath::Constant>, {n, kBlock, kBlock}, kLabStream, in, out, coefficients,
             n);
      break;
    case CoefficientPath::Global:
      launch(polynomial<CoefficientPath::Global>, {n, kBlock, kBlock}, kLabStream, in, out, coefficients, n);
      break;
    case CoefficientPath::ConstantDivergent:
      launch(polynomial<CoefficientPath::ConstantDivergent>, {n, kBlock, kBlock}, kLabStream, in, out,
             coefficients, n);
      break;
  }
}

void set_coefficients(const float* host) {
  COALESCE_CUDA_CHECK(cudaMemcpyToSymbol(c_coefficients, host, kPolynomialTerms * sizeof(float)));
}

struct StencilExpected {
  std::uint32_t seed;
  std::int64_t n;
  __device__ float operator()(std::int64_t i) const {
    float s = 0;
    for (int d = -2; d <= 2; ++d) s += lab_value(seed, clamp_index(i + d, n));
    return s;
  }
};

struct PolynomialExpected {
  std::uint32_t seed;
  bool divergent;
  float c[kPolynomialTerms];
  __device__ float operator()(std::int64_t i) const {
    const float x = lab_value(seed, i);
    const int shift = divergent ? int(i % kPolynomialTerms) : 0;
    float acc = 0;
    for (int k = kPolynomialTerms - 1; k >= 0; --k) acc = acc * x + c[(k + shift) % kPolynomialTerms];
    return acc;
  }
};

constexpr float kTol = 1e-5f;

}  // namespace

std::vector<LabRow> run_ldg_experiment(const LabContext& context) {
  const std::int64_t n = context.settings.elements();
  DeviceBuffer<float> in(n), out(n);
  fill_values(in.data(), n, context.settings.seed);
  const struct {
    ReadPath path;
    const char* name;
  } variants[] = {{ReadPath::Plain, "plain loads"},
                  {ReadPath::Restrict, "const __restrict__"},
                  {ReadPath::Ldg, "__ldg()"}};
  std::vector<LabRow> rows;
  for (const auto& v : variants) {
    poison(out.data(), n * sizeof(float));
    launch_stencil(v.path, in.data(), out.data(), n);
    const bool ok = device_check(out.data(), n, StencilExpected{context.settings.seed, n}, kTol);
    const TimedRow ms =
        timed_row([&] { launch_stencil(v.path, in.data(), out.data(), n); }, context);
    rows.push_back(
        make_row(context, "ldg", std::string("5-point stencil, ") + v.name, ms, 2.0 * n * 4,
                 "2 x N x 4 B (each input read once, each output written once; 5 loads per output)",
                 "art. 002: __ldg for read-only, reused or broadcast data (no figure)", ok));
  }
  return rows;
}

std::vector<LabRow> run_constant_experiment(const LabContext& context) {
  const std::int64_t n = context.settings.elements();
  PolynomialExpected expected{context.settings.seed, false, {}};
  for (int k = 0; k < kPolynomialTerms; ++k) expected.c[k] = lab_value(context.settings.seed + 7, k);
  set_coefficients(expected.c);
  DeviceBuffer<float> in(n), out(n), coefficients = upload(std::vector<float>(expected.c, expected.c + 16));
  fill_values(in.data(), n, context.settings.seed);
  const struct {
    CoefficientPath path;
    const char* name;
    const char* article;
  } variants[] = {
      {CoefficientPath::Constant, "__constant__, same index (broadcast)",
       "art. 002: constant cache broadcast"},
      {CoefficientPath::Global, "global, same index", "art. 002: every thread reading global (no figure)"},
      {CoefficientPath::ConstantDivergent, "__constant__, per-lane index",
       "art. 002: constant suits same-index reads"},
  };
  std::vector<LabRow> rows;
  for (const auto& v : variants) {
    expected.divergent = v.path == CoefficientPath::ConstantDivergent;
    poison(out.data(), n * sizeof(float));
    launch_polynomial(v.path, in.data(), out.data(), coefficients.data(), n);
    const bool ok = device_check(out.data(), n, expected, kTol);
    const TimedRow ms = timed_row(
        [&] { launch_polynomial(v.path, in.data(), out.data(), coefficients.data(), n); }, context);
    rows.push_back(make_row(context, "constant", std::string("16-term polynomial, ") + v.name, ms,
                            2.0 * n * 4, "2 x N x 4 B (read x, write p(x); 16 coefficients not counted)",
                            v.article, ok));
  }
  return rows;
}

std::vector<float> run_stencil(ReadPath path, const std::vector<float>& in) {
  DeviceBuffer<float> d_in = upload(in);
  DeviceBuffer<float> out(in.size());
  poison(out.data(), in.size() * sizeof(float));
  launch_stencil(path, d_in.data(), out.data(), static_cast<std::int64_t>(in.size()));
  return download(out.data(), in.size());
}

std::vector<float> run_polynomial(CoefficientPath path, const std::vector<float>& in,
                                  const std::vector<float>& coefficients) {
  set_coefficients(coefficients.data());
  DeviceBuffer<float> d_in = upload(in);
  DeviceBuffer<float> d_c = upload(coefficients);
  DeviceBuffer<float> out(in.size());
  poison(out.data(), in.size() * sizeof(float));
  launch_polynomial(path, d_in.data(), out.data(), d_c.data(), static_cast<std::int64_t>(in.size()));
  return download(out.data(), in.size());
}

}  // namespace coalesce::lab
