// Host entry points of every lab kernel on host vectors (upload, one launch, download), for the tests:
// the same launch functions the timed experiments use, so the tests check the kernels that are measured.
#pragma once

#include <string>
#include <vector>

#include "sim/particle.h"

namespace coalesce::lab {

enum class CopyKernel { Coalesced, Float4, GridStride, OneElementPerThread };
enum class LanePattern { Coalesced, Swapped, Shifted };  // article 001's vector-add index patterns
enum class ParticleUpdate { SingleField, AllFields };    // x += vx*dt, or position += velocity*dt
enum class TransposeKernel { Naive, Tiled, TiledPadded, Tiled32x8, Tile64, Tile64Block512, Sgeam };
enum class ReadPath { Plain, Restrict, Ldg };
enum class CoefficientPath { Constant, Global, ConstantDivergent };
enum class Fp64Copy { Double4_32a, Double2Pair, ScalarX4 };  // 32 bytes per thread, three ways

// The code the driver loaded for a kernel (cudaFuncGetAttributes): SASS architecture and the PTX's, x 10.
struct LoadedCode {
  int sass = 0;  // binaryVersion, e.g. 90 for sm_90
  int ptx = 0;   // ptxVersion, e.g. 90 for compute_90
};

constexpr int kPolynomialTerms = 16;
constexpr int kBankTableWords = 32 * 33;  // big enough for 32 lanes at stride 33

std::vector<float> run_copy_kernel(CopyKernel kernel, const std::vector<float>& in);  // in.size() % 4 == 0
std::vector<float> run_strided_copy(const std::vector<float>& in, int stride);        // out[i] = in[i*stride]
std::vector<float> run_offset_copy(const std::vector<float>& in, int offset);         // out[i] = in[i+offset]
std::vector<float> run_vector_add(LanePattern pattern, const std::vector<float>& a,
                                  const std::vector<float>& b);  // size % 32 == 0
std::vector<Particle> run_aos_update(const std::vector<Particle>& p, float dt, ParticleUpdate update);
std::vector<Particle> run_soa_update(const std::vector<Particle>& p, float dt, ParticleUpdate update);
std::vector<Particle> run_float4_update(const std::vector<Particle>& p, float dt);  // all fields
// The same updates on fp64 records (lab --precision fp64); the vector layout is double4_32a.
std::vector<ParticleF64> run_aos_update(const std::vector<ParticleF64>& p, double dt, ParticleUpdate update);
std::vector<ParticleF64> run_soa_update(const std::vector<ParticleF64>& p, double dt, ParticleUpdate update);
std::vector<ParticleF64> run_double4_update(const std::vector<ParticleF64>& p, double dt);  // all fields
// in is rows x cols row-major; the result is cols x rows row-major.
std::vector<float> run_transpose(TransposeKernel kernel, const std::vector<float>& in, int rows, int cols);
// Each of `threads` threads sums table[(lane * stride) % kBankTableWords] `iterations` times.
std::vector<float> run_bank_kernel(int stride_words, const std::vector<float>& table, int threads,
                                   int iterations);
// out[i] = in[i-2] + in[i-1] + in[i] + in[i+1] + in[i+2], clamped at the ends.
std::vector<float> run_stencil(ReadPath path, const std::vector<float>& in);
// out[i] = sum_k c[k] * in[i]^k (Horner), or, divergent: sum_k c[(i + k) % 16] * in[i]^k.
std::vector<float> run_polynomial(CoefficientPath path, const std::vector<float>& in,
                                  const std::vector<float>& coefficients);
// Copies in (in.size() % 4 == 0) with one of the fp64 vector kernels.
std::vector<double> run_fp64_copy(Fp64Copy kernel, const std::vector<double>& in);
// The code loaded for that kernel on the current device, and the loads and stores it implies (a row's note).
LoadedCode loaded_code(Fp64Copy kernel);
std::string expected_loads(Fp64Copy kernel, LoadedCode code);

}  // namespace coalesce::lab
