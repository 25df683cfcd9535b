// The backend factory (app/services/backend_factory.h): CUDA when a device is there, else the CPU with a
// notice; --backend cuda refused without a device, and an N that does not fit a runtime failure.
#include <gtest/gtest.h>

#include <climits>

#include "app/services/backend_factory.h"
#include "sim/errors.h"
#include "sim/layout.h"
#include "sim/precision.h"
#include "tests/support/cuda_skip.h"

namespace coalesce {
namespace {

TEST(BackendFactory, PicksCudaWhenPresentAndCpuOtherwise) {
  BackendSelection auto_choice = make_backend(BackendChoice::Auto, 100, Layout::SoA);
  if (testing::cuda_available()) {
    EXPECT_TRUE(auto_choice.backend->device_info().gpu) << auto_choice.backend->name();
    EXPECT_TRUE(auto_choice.notice.empty());
  } else {
    EXPECT_FALSE(auto_choice.backend->device_info().gpu) << auto_choice.backend->name();
    EXPECT_EQ(auto_choice.notice.rfind("running on the CPU backend: ", 0), 0u) << auto_choice.notice;
    EXPECT_THROW(make_backend(BackendChoice::Cuda, 100, Layout::SoA), UsageError);
  }
  EXPECT_FALSE(make_backend(BackendChoice::Cpu, 100, Layout::SoA).backend->device_info().gpu);
}

TEST(BackendFactory, TooLargeNOnCudaIsARuntimeFailure) {
  COALESCE_REQUIRE_CUDA();
  // INT_MAX fp64 bodies: a state and its conversion scratch of 120 GB each, more than any one GPU has
  // (fp32's 60 GB each fit an H200, which then spent minutes filling them instead of refusing).
  EXPECT_THROW(make_backend(BackendChoice::Cuda, INT_MAX, Layout::AoS, Precision::Fp64), RuntimeFailure);
}

}  // namespace
}  // namespace coalesce
