// A run that `coalesce bench --json` saved (schema coalesce-bench/2, docs/bench-json.md), read back for
// --compare and --plot --from through app/services/json_input.h (regular files only, bounded size and depth,
// each row turned into a BenchRow as it is read), every field the readers use checked, each problem one
// UsageError naming the option, the file, the problem and the fix.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "app/bench/bench_types.h"

namespace coalesce {

inline constexpr std::string_view kBenchSchema = "coalesce-bench/2";
// A full GPU sweep writes about 100 KB (counters included); anything near this is not a bench file.
inline constexpr std::uint64_t kMaxBenchJsonBytes = 64ull << 20;

struct SavedBench {
  std::string path;
  BenchResult run;  // backend, device, command line, date, plan.repeats (0 if absent) and the rows
  // The run's clocks block (measured SM and memory clocks), when the counters measured them.
  std::optional<double> sm_mhz;
  std::optional<double> memory_mhz;
};

SavedBench read_bench_json(std::string_view flag, const std::string& path);
// The same over a file's bytes already in memory (the fuzzer's way in); messages name `name`.
SavedBench parse_bench_json(std::string_view flag, const std::string& name, std::string_view bytes);

// The figure that says how well a row's kernel does: interactions/s for the all-pairs forces, which are
// compute bound (their GB/s means nothing), GB/s for every other row (viewer: headline_metric).
bool headline_is_interactions(const BenchRow& row);
double headline_value(const BenchRow& row);

}  // namespace coalesce
