// What a CPU user wants to know about the machine the CPU backend runs on, in one struct filled once per
// process (sim/cpu_info.cpp): the model, cores and threads, the SIMD width the force loop really uses, the
// issue limit in interactions/s, and how the copy ceiling was measured. Unknown values are empty optionals.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

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

struct CpuFacts {
  std::string model;                            // /proc/cpuinfo "model name", or "unknown CPU"
  int threads = 1;                              // threads the kernels and the copy use: every hardware thread
  std::optional<int> cores;                     // physical cores (sysfs core ids); unknown: none
  std::optional<double> clock_mhz;              // cpufreq's maximum, else /proc/cpuinfo "cpu MHz"
  std::string clock_source;                     // which of the two clock_mhz came from
  std::optional<std::size_t> last_level_cache_bytes;
  int last_level_cache_level = 0;               // 3 for an L3; 0 when unknown
  std::string simd;                             // the force loop's instruction set, e.g. "SSE2, 128-bit"
  std::string simd_use;                         // what the loop does with it, in words
  int interactions_per_iteration = 1;           // lanes: interactions one pass of the inner loop does
  std::optional<int> instructions_per_iteration;  // counted from the build's disassembly; none if unverified
  int issue_width = 4;                          // instructions per cycle per core the limit assumes
  std::optional<double> issue_limit;            // interactions/s (cpu_issue_limit); none when a term is unknown
  CpuCopyMethod copy;
};

}  // namespace coalesce
