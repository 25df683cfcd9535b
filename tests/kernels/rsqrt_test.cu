// The fp64 force scale of sim/physics.h on the device, mass_over_cube(m, r^2) = m / r^3 (the hardware's
// rsqrt seed, then one series step), against long double, over the r^2 + eps^2 the forces meet and far
// beyond.
//
// Bound. The step's own error is about (35/16) e^3 for a seed error e; the seed is measured here too and
// must be better than 2^-20, so that term is far below 2^-53 and what remains is rounding: y^2, y^3 and
// m y^3 each round once (the error of y^2 is half undone by e, which is computed from it), then the final
// FMA: about 3 ulps at worst; 4 is the bound. The seed used alone (no step) is millions of ulps off, so the
// bound can fail for the reason it names.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/device_buffer.h"
#include "kernels/launch.h"
#include "sim/physics.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

__global__ void rsqrt_kernel(const double* x, double* refined, double* seed, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  refined[i] = mass_over_cube(1.0, x[i]);
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x[i]));
  seed[i] = y;
}

// Units in the last place of the correctly rounded 1/sqrt(x) between `got` and the exact value.
double ulps(double got, long double exact) {
  const double rounded = static_cast<double>(exact);
  const double ulp = std::nextafter(rounded, INFINITY) - rounded;
  return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / ulp);
}

TEST(Fp64ForceScale, SeedPlusOneSeriesStepIsWithinFourUlps) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  const int n = 1 << 20;
  std::vector<double> x(static_cast<std::size_t>(n));
  // 2^-60 .. 2^61: r^-3 stays normal (2^-92 .. 2^90).
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  for (double& v : x) v = std::ldexp(mantissa(rng.engine()), rng.uniform_int(-60, 60));
  DeviceBuffer<double> dx(x.size()), refined(x.size()), seed(x.size());
  COALESCE_CUDA_CHECK(cudaMemcpy(dx.data(), x.data(), x.size() * sizeof(double), cudaMemcpyHostToDevice));
  launch(rsqrt_kernel, LaunchShape{n, 256, 256}, nullptr, dx.data(), refined.data(), seed.data(), n);
  std::vector<double> got(x.size()), first(x.size());
  COALESCE_CUDA_CHECK(cudaMemcpy(got.data(), refined.data(), got.size() * sizeof(double), cudaMemcpyDeviceToHost));
  COALESCE_CUDA_CHECK(cudaMemcpy(first.data(), seed.data(), first.size() * sizeof(double), cudaMemcpyDeviceToHost));
  double worst_ulps = 0, worst_seed = 0, mean_ulps = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double r = std::sqrt(static_cast<long double>(x[i]));
    const long double exact = 1.0L / (r * r * r);
    const double u = ulps(got[i], exact);
    worst_ulps = std::max(worst_ulps, u);
    mean_ulps += u / static_cast<double>(x.size());
    worst_seed = std::max(worst_seed, static_cast<double>(std::fabs(first[i] - 1.0L / r) * r));
  }
  RecordProperty("worst_ulps", std::to_string(worst_ulps));
  RecordProperty("mean_ulps", std::to_string(mean_ulps));
  RecordProperty("seed_relative_error", std::to_string(worst_seed));
  std::printf("fp64 m/r^3 over %d values: worst %.3f ulp, mean %.3f ulp; rsqrt seed alone: worst relative "
              "error %.3g (2^%.1f)\n", n, worst_ulps, mean_ulps, worst_seed, std::log2(worst_seed));
  EXPECT_LE(worst_ulps, 4.0);
  EXPECT_LT(worst_seed, 0x1p-20) << "the seed is worse than the step assumes";
  EXPECT_GT(worst_seed / 0x1p-53, 1000.0) << "the seed alone would pass: the test would not see a missing step";
}

}  // namespace
}  // namespace coalesce
