// The instruction counts behind the CPU's issue limit (sim/cpu_info.cpp's kLoopCounts) are those of the
// loops this build compiled: scripts/cpu-loop-count counts them again in objdump -d of cpu_simd.cpp.o.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <unistd.h>

#include "sim/cpu_info.h"
#include "tests/support/process.h"

namespace coalesce {
namespace {

TEST(CpuLoopCount, TheLimitCountsTheLoopsThisBuildCompiled) {
  const CpuFacts avx512 = cpu_facts(CpuTarget::Avx512);
  if (!avx512.force_loop(Precision::Fp32).instructions_per_iteration)
    GTEST_SKIP() << "skipped: this compiler's loops are not counted (sim/cpu_info.cpp), so the limit is unknown";
  // A binary carried to another machine (the GPU machine's runs) has no build tree beside it.
  if (::access(COALESCE_SIMD_OBJECT, R_OK) != 0)
    GTEST_SKIP() << "skipped: " << COALESCE_SIMD_OBJECT << " is not here to disassemble";
  const testing::ProcessResult r = testing::run_process(
      {"python3", COALESCE_SOURCE_DIR "/scripts/cpu-loop-count", COALESCE_SIMD_OBJECT});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string target, precision;
  int instructions = 0, multiply_class = 0, seen = 0;
  while (lines >> target >> precision >> instructions >> multiply_class) {
    const auto row = parse_cpu_target_name(target);
    const auto p = parse_precision(precision);
    ASSERT_TRUE(row && p) << r.out;
    const CpuForceLoop& loop = cpu_facts(*row).force_loop(*p);
    EXPECT_EQ(loop.instructions_per_iteration, instructions) << target << " " << precision;
    EXPECT_EQ(loop.fp_pipe_instructions, multiply_class) << target << " " << precision;
    ++seen;
  }
  EXPECT_EQ(seen, 6) << "three SIMD targets x two precisions:\n" << r.out;
}

}  // namespace
}  // namespace coalesce
