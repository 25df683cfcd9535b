// The all-pairs partial sums are counted where they are allocated and moved (issue 30): the device-memory
// estimate at start names each scheme's, and each forces timing's bytes are the formula's state bytes plus
// those partial sums written and read back, with the same sizes the backend's schedules allocate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/cuda_backend.h"
#include "kernels/device_probe.h"
#include "kernels/kernels.h"
#include "sim/byte_counts.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

TEST(CudaPartialSums, EstimateNamesEachSchemesPartialSums) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  const int n = rng.uniform_int(1000, 300000);
  const Layout layout = testing::random_layout(rng);
  const Precision precision = testing::random_precision(rng);
  const DeviceMemoryEstimate e = estimate_device_memory(n, layout, precision, 0);
  const DeviceMemoryEstimate plain = estimate_device_memory(n, precision);
  EXPECT_EQ(e.total(), plain.total())
      << "the partial sums are allocated at the first all-pairs step, not at start";
  EXPECT_EQ(e.one_sided_partials, gpu::one_sided_partial_bytes(n, layout, precision));
  // At least one slot of 3 sums per body, in the state's scalar.
  EXPECT_GE(e.mutual_partials, 3 * static_cast<std::size_t>(n) * scalar_bytes(precision));
  EXPECT_GE(e.one_sided_partials, 3 * static_cast<std::size_t>(n) * scalar_bytes(precision));
  const std::string line = describe_device_memory(e, free_device_memory(0));
  char mib[64];
  std::snprintf(mib, sizeof mib, "mutual %.1f MiB", e.mutual_partials / (1024.0 * 1024.0));
  EXPECT_NE(line.find(mib), std::string::npos) << line;
  std::snprintf(mib, sizeof mib, "one-sided %.1f MiB", e.one_sided_partials / (1024.0 * 1024.0));
  EXPECT_NE(line.find(mib), std::string::npos) << line;
}

// Each scheme's forces timing: bytes = N x the state terms + 2 x its partial sums, and scratch_bytes the
// latter; the partial sums are those the estimate at start named for the scheme.
TEST(CudaPartialSums, ForcesBytesCountThePartialSumsWrittenAndReadBack) {
  COALESCE_REQUIRE_CUDA();
  testing::TestRng rng;
  const int n = rng.uniform_int(2000, 200000);
  const Layout layout = testing::random_layout(rng);
  const Precision precision = testing::random_precision(rng);
  const DeviceMemoryEstimate e = estimate_device_memory(n, layout, precision, 0);
  CudaBackend gpu(n, layout, 0, precision);
  gpu.upload(testing::random_particles(rng, n));
  for (ForceMethod method : {ForceMethod::OneSidedAllPairs, ForceMethod::MutualAllPairs}) {
    const SimParams params = testing::random_all_pairs_step(rng).params;
    gpu.set_force_method(method);
    gpu.step(params, 0.0);
    gpu.synchronize();
    const std::vector<KernelTiming> timings = gpu.poll_timings();
    const auto forces = std::find_if(timings.begin(), timings.end(),
                                     [](const KernelTiming& t) { return t.kernel == KernelKind::Forces; });
    ASSERT_NE(forces, timings.end());
    const double partials =
        static_cast<double>(method == ForceMethod::MutualAllPairs ? e.mutual_partials : e.one_sided_partials);
    SCOPED_TRACE(std::string(method_info(method).name) + ", N = " + std::to_string(n));
    EXPECT_DOUBLE_EQ(forces->scratch_bytes, 2.0 * partials);
    // Both all-pairs methods read and write the same state: the one-sided row's formula for either.
    EXPECT_DOUBLE_EQ(forces->bytes,
                     bytes_moved(KernelKind::Forces, layout, ForceMethod::OneSidedAllPairs, n, precision) +
                         2.0 * partials);
  }
}

}  // namespace
}  // namespace coalesce
