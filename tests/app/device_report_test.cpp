// The one rendering of DeviceInfo (app/services/device_report.h) over a real device's facts.
#include <gtest/gtest.h>

#include <string>

#include "app/services/backend_factory.h"
#include "app/services/device_report.h"
#include "sim/layout.h"
#include "tests/support/cuda_skip.h"

namespace coalesce {
namespace {

TEST(DeviceReport, DriverTextNamesTheCudaDriver) {
  COALESCE_REQUIRE_CUDA();
  const BackendSelection gpu = make_backend(BackendChoice::Cuda, 1024, Layout::SoA);
  const DeviceInfo& info = gpu.backend->device_info();
  EXPECT_NE(driver_text(info).find("CUDA " + info.cuda_driver), std::string::npos) << driver_text(info);
}

}  // namespace
}  // namespace coalesce
