// The CPU targets this machine runs, for tests over them, and the one way such a test skips when it would
// check nothing ("skipped: this CPU runs none of kCpuTargetTable's SIMD targets").
#pragma once

#include <gtest/gtest.h>

#include <vector>

#include "sim/cpu_target.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {

// The rows of kCpuTargetTable this CPU runs, the scalar reference included.
inline std::vector<CpuTarget> cpu_targets_here() {
  std::vector<CpuTarget> out;
  for (const CpuTargetInfo& row : kCpuTargetTable)
    if (cpu_target_supported(row.target)) out.push_back(row.target);
  return out;
}

// The SIMD rows of kCpuTargetTable this CPU runs: each is tested, none is assumed.
inline std::vector<CpuTarget> simd_targets_here() {
  std::vector<CpuTarget> out;
  for (CpuTarget target : cpu_targets_here())
    if (target != CpuTarget::Scalar) out.push_back(target);
  return out;
}

// One of the targets this CPU runs, uniformly: every draw checks something.
inline CpuTarget random_target_here(TestRng& rng) {
  const std::vector<CpuTarget> here = cpu_targets_here();
  return here[static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(here.size()) - 1))];
}

}  // namespace coalesce::testing

// A test over the SIMD targets says so when this CPU runs none, rather than passing having checked nothing.
#define COALESCE_REQUIRE_SIMD()                                                                   \
  do {                                                                                            \
    if (::coalesce::testing::simd_targets_here().empty())                                         \
      GTEST_SKIP() << "skipped: this CPU runs none of kCpuTargetTable's SIMD targets";            \
  } while (false)
