// The lab's copy kernels (coalesced, float4, grid-stride, strided, offset) against the host.
#include <gtest/gtest.h>

#include "kernels/lab/lab_kernels.h"
#include "tests/kernels/lab/lab_test_util.h"

namespace coalesce::lab {
namespace {

using testing::random_floats;
using testing::random_size;
using testing::TestRng;

TEST(LabCopy, EveryCopyKernelReproducesItsInput) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const std::vector<float> in = random_floats(rng, random_size(rng, 1000, 200000, 4));
  for (CopyKernel k :
       {CopyKernel::Coalesced, CopyKernel::Float4, CopyKernel::GridStride, CopyKernel::OneElementPerThread}) {
    EXPECT_EQ(run_copy_kernel(k, in), in) << "copy kernel " << int(k) << ", n = " << in.size();
  }
}

TEST(LabCopy, StridedCopyTakesEveryStrideThElement) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const std::vector<float> in = random_floats(rng, rng.uniform_int(1000, 100000));
  for (int stride : {1, 2, 4, 8, 16, 32}) {
    const std::vector<float> out = run_strided_copy(in, stride);
    ASSERT_EQ(out.size(), in.size() / stride);
    for (std::size_t i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], in[i * stride]) << "stride " << stride << ", element " << i;
  }
}

TEST(LabCopy, OffsetCopyReadsShiftedInput) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const std::vector<float> in = random_floats(rng, rng.uniform_int(1000, 100000));
  for (int offset : {0, 1, 2, 4, 8, 16, 32}) {
    const std::vector<float> out = run_offset_copy(in, offset);
    ASSERT_EQ(out.size(), in.size() - offset);
    for (std::size_t i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], in[i + offset]) << "offset " << offset << ", element " << i;
  }
}

}  // namespace
}  // namespace coalesce::lab
