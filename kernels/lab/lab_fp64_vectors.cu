// fp64 vectors: a copy of 32 bytes per thread as one double4_32a, as two double2 and as four doubles. CUDA 13
// deprecated double4 for double4_16a / double4_32a; sm_90 has no 256-bit load, so double4_32a compiles to
// the same two 128-bit loads as two double2 there, and to one 256-bit load on sm_100 and sm_120
// (scripts/lab-sass prints them; docs/lab.md shows them).
#include <cstdio>
#include <string>

#include "kernels/lab/lab_device.cuh"
#include "kernels/lab/lab_experiments.h"
#include "kernels/lab/lab_kernels.h"

namespace coalesce::lab {
namespace {

// The kernels' names start with fp64_copy_ so that scripts/lab-sass finds them in cuobjdump's output.

// One 32-byte vector per thread. cudaMalloc's 256-byte alignment makes the cast from double* legal.
__global__ void fp64_copy_double4_32a(const double4_32a* in, double4_32a* out, std::int64_t vectors) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i < vectors) out[i] = in[i];
}

// The same 32 bytes per thread as two adjacent 16-byte halves: both loads issue before either store.
__global__ void fp64_copy_double2_pair(const double2* in, double2* out, std::int64_t vectors) {
  const std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
  if (i >= vectors) return;
  const double2 low = in[2 * i];
  const double2 high = in[2 * i + 1];
  out[2 * i] = low;
  out[2 * i + 1] = high;
}

// Four doubles per thread, blockDim apart, so each warp-wide load reads 256 contiguous bytes (coalesced);
// a block covers the same 32 x blockDim bytes as the vector kernels.
__global__ void fp64_copy_scalar_x4(const double* in, double* out, std::int64_t doubles) {
  const std::int64_t base = blockIdx.x * 4 * std::int64_t(blockDim.x) + threadIdx.x;
  double v[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const std::int64_t j = base + k * std::int64_t(blockDim.x);
    v[k] = j < doubles ? in[j] : 0.0;
  }
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const std::int64_t j = base + k * std::int64_t(blockDim.x);
    if (j < doubles) out[j] = v[k];
  }
}

// `vectors` 32-byte vectors: 4 x vectors doubles.
void launch_fp64_copy(Fp64Copy kernel, const double* in, double* out, std::int64_t vectors) {
  switch (kernel) {
    case Fp64Copy::Double4_32a:
      launch(fp64_copy_double4_32a, {vectors, kBlock, kBlock}, kLabStream,
             reinterpret_cast<const double4_32a*>(in), reinterpret_cast<double4_32a*>(out), vectors);
      break;
    case Fp64Copy::Double2Pair:
      launch(fp64_copy_double2_pair, {vectors, kBlock, kBlock}, kLabStream, reinterpret_cast<const double2*>(in),
             reinterpret_cast<double2*>(out), vectors);
      break;
    case Fp64Copy::ScalarX4:
      launch(fp64_copy_scalar_x4, {4 * vectors, 4 * kBlock, kBlock}, kLabStream, in, out, 4 * vectors);
      break;
  }
}

template <class Kernel>
cudaFuncAttributes attributes_of(Kernel kernel) {
  cudaFuncAttributes a{};
  COALESCE_CUDA_CHECK(cudaFuncGetAttributes(&a, kernel));
  return a;
}

std::string text(const char* format, int a, int b = 0) {
  char out[200];
  std::snprintf(out, sizeof out, format, a, b);
  return out;
}

struct SameDouble {
  std::uint32_t seed;
  __device__ double operator()(std::int64_t i) const { return lab_value_f64(seed, i); }
};

const char* const kFormula = "2 x V x 32 B (V = N/8 vectors of 4 doubles, the bytes of N floats; read, write)";

}  // namespace

LoadedCode loaded_code(Fp64Copy kernel) {
  cudaFuncAttributes a{};
  switch (kernel) {
    case Fp64Copy::Double4_32a: a = attributes_of(fp64_copy_double4_32a); break;
    case Fp64Copy::Double2Pair: a = attributes_of(fp64_copy_double2_pair); break;
    case Fp64Copy::ScalarX4: a = attributes_of(fp64_copy_scalar_x4); break;
  }
  return {a.binaryVersion, a.ptxVersion};
}

// What the loaded code's loads are, from the code the driver loaded: sm_XX is the SASS it runs (its
// binaryVersion), compute_YY the PTX it was made from (for a JIT-compiled kernel, not the SASS's). A 256-bit
// global access needs both >= 100; below, double4_32a is split into two 128-bit accesses. The mnemonics are
// nvcc 13.0's, read with cuobjdump for sm_90, sm_100 and sm_120 (docs/lab.md); scripts/lab-sass shows them.
std::string expected_loads(Fp64Copy kernel, LoadedCode code) {
  const std::string where = code.ptx > 0 && code.ptx != code.sass
                                ? text("sm_%d code from compute_%d PTX: ", code.sass, code.ptx)
                                : text("sm_%d code: ", code.sass);
  switch (kernel) {
    case Fp64Copy::Double4_32a:
      if (code.ptx < 100 || code.sass < 100)
        return where + "2 x 128-bit loads + 2 x 128-bit stores per thread (LDG.E.128), as 2 x double2; 256-bit "
                       "needs sm_100+ SASS and PTX";
      if (code.sass == 100 || code.sass == 120)
        return where + "1 x 256-bit load + 1 x 256-bit store per thread (LDG.E.ENL2.256)";
      return where + "the PTX asks for 1 x 256-bit load + store (sm_100 and sm_120 keep it as one "
                     "LDG.E.ENL2.256; scripts/lab-sass shows this one)";
    case Fp64Copy::Double2Pair:
      return where + "2 x 128-bit loads + 2 x 128-bit stores per thread (LDG.E.128)";
    case Fp64Copy::ScalarX4:
      return where + "4 x 64-bit loads + 4 x 64-bit stores per thread (LDG.E.64), 256 contiguous bytes per warp "
                     "load";
  }
  return where;
}

std::vector<LabRow> run_fp64_vectors_experiment(const LabContext& context) {
  // The same bytes as the fp32 experiments' arrays: N floats = N/8 vectors of 32 bytes.
  const std::int64_t vectors = context.settings.elements() / 8;
  const std::int64_t doubles = 4 * vectors;
  DeviceBuffer<double> in(doubles), out(doubles);
  fill_values_f64(in.data(), doubles, context.settings.seed);
  const struct {
    Fp64Copy kernel;
    const char* name;
    const char* article;
  } variants[] = {
      {Fp64Copy::Double4_32a, "double4_32a, 1 per thread", "art. 002: 16-byte vectors (float4, int4); no 32-byte type"},
      {Fp64Copy::Double2Pair, "2 x double2 per thread", "art. 002: 16-byte vector loads, aligned base"},
      {Fp64Copy::ScalarX4, "4 x double per thread, coalesced", ""},
  };
  std::vector<LabRow> rows;
  for (const auto& v : variants) {
    poison(out.data(), doubles * sizeof(double));
    launch_fp64_copy(v.kernel, in.data(), out.data(), vectors);
    const bool ok = device_check(out.data(), doubles, SameDouble{context.settings.seed});
    const TimedRow ms =
        timed_row([&] { launch_fp64_copy(v.kernel, in.data(), out.data(), vectors); }, context);
    LabRow row = make_row(context, "fp64-vectors", v.name, ms, 2.0 * vectors * 32, kFormula, v.article, ok);
    row.note = expected_loads(v.kernel, loaded_code(v.kernel));
    rows.push_back(row);
  }
  return rows;
}

std::vector<double> run_fp64_copy(Fp64Copy kernel, const std::vector<double>& in) {
  DeviceBuffer<double> d_in = upload(in);
  DeviceBuffer<double> out(in.size());
  poison(out.data(), in.size() * sizeof(double));
  launch_fp64_copy(kernel, d_in.data(), out.data(), static_cast<std::int64_t>(in.size() / 4));
  return download(out.data(), in.size());
}

}  // namespace coalesce::lab
