// Every transpose variant, cublasSgeam included, against a host transpose on random rectangular matrices
// whose sides are not multiples of the tiles (the edge guards are tested too).
#include <gtest/gtest.h>

#include "kernels/lab/lab_kernels.h"
#include "tests/kernels/lab/lab_test_util.h"

namespace coalesce::lab {
namespace {

using testing::random_floats;
using testing::TestRng;

std::vector<float> host_transpose(const std::vector<float>& in, int rows, int cols) {
  std::vector<float> out(in.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out[std::size_t(c) * rows + r] = in[std::size_t(r) * cols + c];
  return out;
}

const TransposeKernel kAll[] = {TransposeKernel::Naive,       TransposeKernel::Tiled,
                                TransposeKernel::TiledPadded, TransposeKernel::Tiled32x8,
                                TransposeKernel::Tile64,      TransposeKernel::Tile64Block512,
                                TransposeKernel::Sgeam};

TEST(LabTranspose, EveryVariantMatchesTheHostOnRaggedSizes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int rows = rng.uniform_int(1, 700), cols = rng.uniform_int(1, 700);
  const std::vector<float> in = random_floats(rng, rows * cols);
  const std::vector<float> want = host_transpose(in, rows, cols);
  for (TransposeKernel k : kAll)
    EXPECT_EQ(run_transpose(k, in, rows, cols), want)
        << "variant " << int(k) << ", " << rows << " x " << cols;
}

TEST(LabTranspose, EveryVariantMatchesTheHostOnTileMultiples) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int rows = 64 * rng.uniform_int(1, 12), cols = 64 * rng.uniform_int(1, 12);
  const std::vector<float> in = random_floats(rng, rows * cols);
  const std::vector<float> want = host_transpose(in, rows, cols);
  for (TransposeKernel k : kAll)
    EXPECT_EQ(run_transpose(k, in, rows, cols), want)
        << "variant " << int(k) << ", " << rows << " x " << cols;
}

}  // namespace
}  // namespace coalesce::lab
