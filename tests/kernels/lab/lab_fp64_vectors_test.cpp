// The fp64 vector copies (double4_32a, 2 x double2, 4 x double) against their input, bit for bit, and the
// loads each row's note names for the code the driver loaded.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <random>
#include <string>

#include "kernels/lab/lab_kernels.h"
#include "tests/kernels/lab/lab_test_util.h"

namespace coalesce::lab {
namespace {

using testing::random_size;
using testing::TestRng;

constexpr Fp64Copy kAll[] = {Fp64Copy::Double4_32a, Fp64Copy::Double2Pair, Fp64Copy::ScalarX4};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Sizes that are not a whole block, and doubles with all 53 bits used, so a dropped or swapped half shows.
TEST(LabFp64Vectors, EveryKernelCopiesItsInputBitForBit) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  std::vector<double> in(static_cast<std::size_t>(random_size(rng, 1000, 200000, 4)));
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (double& x : in) x = value(rng.engine());
  for (Fp64Copy k : kAll) EXPECT_EQ(run_fp64_copy(k, in), in) << "kernel " << int(k) << ", n = " << in.size();
}

// The note follows the loaded code: no 256-bit access below sm_100, nor from PTX made for compute_90.
TEST(LabFp64Vectors, NotesFollowTheLoadedCode) {
  EXPECT_TRUE(contains(expected_loads(Fp64Copy::Double4_32a, {90, 90}), "sm_90 code: 2 x 128-bit loads"));
  EXPECT_TRUE(contains(expected_loads(Fp64Copy::Double4_32a, {100, 100}), "sm_100 code: 1 x 256-bit load"));
  EXPECT_TRUE(contains(expected_loads(Fp64Copy::Double4_32a, {100, 90}),
                       "sm_100 code from compute_90 PTX: 2 x 128-bit loads"));
  EXPECT_TRUE(contains(expected_loads(Fp64Copy::Double4_32a, {120, 120}), "sm_120 code: 1 x 256-bit load"));
  EXPECT_TRUE(contains(expected_loads(Fp64Copy::Double4_32a, {110, 110}), "scripts/lab-sass"));
  for (LoadedCode code : {LoadedCode{90, 90}, LoadedCode{100, 100}}) {
    EXPECT_TRUE(contains(expected_loads(Fp64Copy::Double2Pair, code), "2 x 128-bit loads"));
    EXPECT_TRUE(contains(expected_loads(Fp64Copy::ScalarX4, code), "4 x 64-bit loads"));
  }
}

// The driver loaded SASS for this device (native, or JIT-compiled from the PTX) for every kernel.
TEST(LabFp64Vectors, LoadedCodeFitsTheDevice) {
  COALESCE_REQUIRE_CUDA();
  int device = 0, major = 0, minor = 0;
  ASSERT_EQ(cudaGetDevice(&device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), cudaSuccess);
  for (Fp64Copy k : kAll) {
    const LoadedCode code = loaded_code(k);
    EXPECT_GT(code.sass, 0) << int(k);
    EXPECT_LE(code.sass, 10 * major + minor) << int(k);
    EXPECT_GT(code.ptx, 0) << int(k);
    EXPECT_LE(code.ptx, code.sass) << int(k) << ": PTX newer than the SASS made from it";
  }
}

}  // namespace
}  // namespace coalesce::lab
