// What a CPU user wants to know about the machine the CPU backend runs on (sim/cpu_info.cpp): the model,
// cores and threads, the SIMD target the loops use, the force loop's issue limit in interactions/s per
// precision, and how the copy ceiling was measured. Unknown values are empty optionals.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "sim/memory_ceiling.h"
#include "sim/precision.h"

namespace coalesce {

// How the CPU's ceilings are measured (sim/memory_ceiling.h): `threads` threads of the kernels' pool each
// take one contiguous part of two buffers of `buffer_bytes` and move it as the ceiling's row says,
// `warmups` untimed passes then `copies` timed; the median is the ceiling. min/max: the copy's.
struct CpuCopyMethod {
  std::size_t buffer_bytes = 0;  // each of the two buffers: past the last-level cache
  int threads = 0;
  int warmups = 0;
  int copies = 0;
  double min_gbps = 0, max_gbps = 0;  // the fastest and slowest timed copy, for the spread
};

// One ceiling's measurement: the median of the timed passes and their range, bytes read + written per s.
struct CpuCeilingMeasure {
  double gbps = 0, min_gbps = 0, max_gbps = 0;
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
  int threads = 1;                              // threads the kernels and the copy use: the usable CPUs
  int online_cpus = 1;                          // CPUs the system has online, usable or not
  std::optional<double> cpu_quota;              // CPUs the cgroup quota allows; none: no quota
  std::string threads_rule;                     // how threads was found: usable_cpus().describe()
  std::optional<int> cores;                     // physical cores among the usable CPUs (sysfs core ids)
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
  std::array<CpuCeilingMeasure, kCeilingCount> ceilings{};  // by Ceiling: ceiling(c)

  const CpuCeilingMeasure& ceiling(Ceiling c) const { return ceilings[static_cast<std::size_t>(c)]; }

  const CpuForceLoop& force_loop(Precision p) const { return force_loops[static_cast<std::size_t>(p)]; }
  CpuForceLoop& force_loop(Precision p) { return force_loops[static_cast<std::size_t>(p)]; }
};

}  // namespace coalesce
