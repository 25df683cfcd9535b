// What a CPU user wants to know about the machine the CPU backend runs on (sim/cpu_info.cpp): the model,
// cores and threads, the SIMD target the loops use, the force loop's issue limit in interactions/s per
// precision, and how the copy ceiling was measured. Unknown values are empty optionals.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "sim/precision.h"

namespace coalesce {

// The CPU copy ceiling: `threads` threads of the kernels' pool each memcpy one contiguous part of a buffer
// of `buffer_bytes` into another, `warmups` untimed copies then `copies` timed; the median is the ceiling.
struct CpuCopyMethod {
  std::size_t buffer_bytes = 0;  // each of the two buffers: past the last-level cache
  int threads = 0;
  int warmups = 0;
  int copies = 0;
  double min_gbps = 0, max_gbps = 0;  // the fastest and slowest timed copy, for the spread
};

// One precision's all-pairs inner loop (one source against a pass's targets) as the target builds it.
struct CpuForceLoop {
  int interactions_per_iteration = 1;              // targets one pass over a source serves: lanes x registers
  std::optional<int> instructions_per_iteration;   // the whole loop body, counted in objdump -d
  std::optional<int> fp_pipe_instructions;         // of those, the multiply-class ones (mul, FMA, rsqrt, ...)
  std::optional<double> issue_limit;               // interactions/s (cpu_issue_limit); none when a term is unknown
};

struct CpuFacts {
  std::string model;                            // /proc/cpuinfo "model name", or "unknown CPU"
  int threads = 1;                              // threads the kernels and the copy use: every hardware thread
  std::optional<int> cores;                     // physical cores (sysfs core ids); unknown: none
  std::optional<double> clock_mhz;              // cpufreq's maximum, else /proc/cpuinfo "cpu MHz"
  std::string clock_source;                     // which of the two clock_mhz came from
  std::optional<std::size_t> last_level_cache_bytes;
  int last_level_cache_level = 0;               // 3 for an L3; 0 when unknown
  std::string target;                           // the kCpuTargetTable name the loops use: "avx512"
  std::string simd;                             // its label, width and how it was chosen, in words
  std::string simd_use;                         // what the force loop does with it, in words
  int vector_bits = 0;                          // one register of the target; 0 for the scalar loop
  // The limit's machine model, assumed (not read from the CPU): 2 multiply/FMA pipes of 256 bits a core,
  // as in AMD Zen 2 to 4 and Intel's client cores. Adds run on other pipes on AMD (docs/perf.md).
  int fp_pipes = 2;
  int fp_pipe_bits = 256;
  std::array<CpuForceLoop, kPrecisionCount> force_loops{};  // by Precision: force_loop(precision)
  CpuCopyMethod copy;

  const CpuForceLoop& force_loop(Precision p) const { return force_loops[static_cast<std::size_t>(p)]; }
  CpuForceLoop& force_loop(Precision p) { return force_loops[static_cast<std::size_t>(p)]; }
};

}  // namespace coalesce
