// The forces' scratch counted where it is moved (issue 30): the CPU backend's forces timing holds the state
// bytes of the formula plus its partial sums (mutual) or staged source rows (one-sided SIMD), each written
// once and read back, and the formula's text says so with the same number.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "sim/byte_counts.h"
#include "sim/cpu_backend.h"
#include "sim/cpu_simd.h"
#include "tests/support/cpu_targets_here.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

KernelTiming forces_timing(CpuBackend& cpu, ForceMethod method, const SimParams& params) {
  cpu.set_force_method(method);
  cpu.step(params, 0.0);
  for (const KernelTiming& t : cpu.poll_timings())
    if (t.kernel == KernelKind::Forces) return t;
  ADD_FAILURE() << "no forces timing";
  return {};
}

TEST(ScratchBytes, CpuForcesCountTheirPartialSumsAndStagedRows) {
  testing::TestRng rng;
  for (int trial = 0; trial < 6; ++trial) {
    const int n = rng.uniform_int(65, 3000);
    const Layout layout = testing::random_layout(rng);
    const Precision precision = testing::random_precision(rng);
    const std::size_t real = scalar_bytes(precision);
    const CpuTarget target = testing::random_target_here(rng);  // one this CPU runs: every trial checks
    SCOPED_TRACE("N " + std::to_string(n) + " " + std::string(to_string(layout)) + " " +
                 std::string(to_string(precision)) + " " + std::string(cpu_target_info(target).name));
    CpuBackend cpu(n, layout, rng.uniform_int(1, 3), precision, target);
    cpu.upload(testing::random_particles(rng, n));
    const double state = bytes_moved(KernelKind::Forces, layout, ForceMethod::OneSidedAllPairs, n, precision);

    SimParams params;
    const KernelTiming mutual = forces_timing(cpu, ForceMethod::MutualAllPairs, params);
    // Tiles of `rect` bodies (whole 64-body rows) covering N, each tile with tiles + 1 slots of 3 sums a
    // body, written and read back.
    const double slots = mutual.scratch_bytes / (2.0 * 3 * static_cast<double>(real));
    bool found = false;
    for (int rect = 64; rect < n + 64 && !found; rect += 64) {
      const int tiles = (n + rect - 1) / rect;
      found = static_cast<double>(tiles) * (tiles + 1) * rect == slots;
    }
    EXPECT_TRUE(found) << mutual.scratch_bytes << " B are not the partial sums of any tiling of N";
    EXPECT_DOUBLE_EQ(mutual.bytes, state + mutual.scratch_bytes);
    EXPECT_EQ(mutual.scratch_what, kPartialSums);  // what the viewer's formula and note call them

    const KernelTiming one_sided = forces_timing(cpu, ForceMethod::OneSidedAllPairs, params);
    // The SIMD loop stages x, y, z, m rows of N padded to its 64-body blocks; the scalar loop stages none.
    const double staged =
        target == CpuTarget::Scalar ? 0.0 : 4.0 * ((n + kSimdBlock - 1) / kSimdBlock * kSimdBlock) * real;
    EXPECT_DOUBLE_EQ(one_sided.scratch_bytes, 2.0 * staged);
    EXPECT_DOUBLE_EQ(one_sided.bytes, state + 2.0 * staged);
    EXPECT_EQ(one_sided.scratch_what, staged > 0 ? kStagedSources : std::string_view());

    params.attractors.count = rng.uniform_int(1, kMaxAttractors);
    const KernelTiming attractors = forces_timing(cpu, ForceMethod::Attractors, params);
    EXPECT_EQ(attractors.scratch_bytes, 0.0);
    EXPECT_TRUE(attractors.scratch_what.empty());
    EXPECT_DOUBLE_EQ(attractors.bytes,
                     bytes_moved(KernelKind::Forces, layout, ForceMethod::Attractors, n, precision));
  }
}

TEST(ScratchBytes, FormulaTextNamesTheScratchItCounts) {
  testing::TestRng rng;
  const Layout layout = testing::random_layout(rng);
  const Precision precision = testing::random_precision(rng);
  const int n = rng.uniform_int(1, 1 << 22);
  const double scratch = static_cast<double>(rng.uniform_int(1, 1 << 30));
  const ByteFormula f =
      forces_byte_formula(layout, ForceMethod::OneSidedAllPairs, precision, scratch, kPartialSums);
  EXPECT_DOUBLE_EQ(
      f.bytes(n),
      bytes_moved(KernelKind::Forces, layout, ForceMethod::OneSidedAllPairs, n, precision) + 2 * scratch);
  char size[160];
  std::snprintf(size, sizeof size, "+ 2 x %.2f MB partial sums (written, then read back)", scratch / 1e6);
  EXPECT_NE(f.text().find(size), std::string::npos) << f.text();
  const ByteFormula none =
      forces_byte_formula(layout, ForceMethod::OneSidedAllPairs, precision, 0.0, kPartialSums);
  EXPECT_EQ(none.text(),
            kernel_byte_formula(KernelKind::Forces, layout, ForceMethod::OneSidedAllPairs, precision).text());
}

}  // namespace
}  // namespace coalesce
