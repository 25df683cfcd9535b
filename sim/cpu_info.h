// What the CPU backend reports about its machine (sim/cpu_facts.h), read and measured once per process, and
// the rules those facts follow, exposed so tests can check them on values of their own.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "sim/backend.h"
#include "sim/cpu_target.h"

namespace coalesce {

// The facts of this machine: read from /proc and /sys and the three ceilings measured, the first time it is
// called in a process (about a second with two 1 GiB buffers on huge pages); the same object afterwards.
// No target filled in.
const CpuFacts& cpu_facts();

// The machine's facts with the loops of `target` filled in: its name and width, the force loops' counts
// and their issue limits.
CpuFacts cpu_facts(CpuTarget target);

// DeviceInfo of the CPU backend on `target`: cpu_facts(target) in `cpu`, the model as the name, the usable
// CPUs as multiprocessors, RAM as memory, the copy ceiling and the others (sim/memory_ceiling.h, measured
// the first time this is called in a process); the GPU-only values unknown.
DeviceInfo cpu_device_info(CpuTarget target = best_cpu_target());

// Each copy buffer: 4 x the last-level cache, within 64 MiB..1 GiB, so no cache holds it; 256 MiB when the
// cache size is unknown.
std::size_t cpu_copy_buffer_bytes(std::optional<std::size_t> last_level_cache_bytes);

// The buffers of ceiling `c` for a row that moves `row_bytes` (read + written): each the row's bytes over
// the buffers the ceiling counts, so the two move the same bytes through the same working set (whole cache
// lines), and at most the start-up ceiling's `startup_buffer_bytes`: a ceiling is never larger than its row,
// so it never has less of the cache than the row has.
std::size_t cpu_ceiling_buffer_bytes(Ceiling c, double row_bytes, std::size_t startup_buffer_bytes);

// Ceiling `c` measured as at start-up (the kernels' threads, its warm-ups, at least its timed passes) on two
// buffers of `buffer_bytes` (rounded down to whole cache lines): a row's own-size ceiling
// (cpu_ceiling_buffer_bytes). More passes until `most_passes` or until they took `budget_ms` (0: no
// budget), as the row repeats: a pass in the cache takes microseconds, and 9 of them sample little of
// what the other users of a shared core do.
CpuCeilingMeasure measure_cpu_ceiling(Ceiling c, std::size_t buffer_bytes, int most_passes, double budget_ms);

// Whether a ceiling's two buffers of `buffer_bytes` (the working set of the row it is measured for) fit in
// the last-level cache together; none when the cache's size is unknown.
std::optional<bool> fits_in_cache(std::size_t buffer_bytes,
                                  std::optional<std::size_t> last_level_cache_bytes);

// The last-level cache's size as cpu_facts() reads it, without measuring anything; none when unknown.
std::optional<std::size_t> cpu_last_level_cache_bytes();

// A sysfs cache size ("32768K", "1M", "512") in bytes; none when it is not one.
std::optional<std::size_t> parse_cache_size(const std::string& text);

// Bits of one force-loop instruction: the target's register, or the precision's scalar in the scalar loop.
int cpu_instruction_bits(const CpuFacts& facts, Precision precision);

// Multiply-class instructions a core issues per cycle on the assumed pipes: fp_pipes, halved for each
// doubling of the register past fp_pipe_bits (AVX-512 on 256-bit pipes); scalar and narrower: fp_pipes.
double fp_pipe_instructions_per_cycle(const CpuFacts& facts, Precision precision);

// Cores the kernels' threads run on: min(threads, physical cores among the usable CPUs), no more than the
// cgroup quota's CPUs (1.5 under a quota of 1.5).
double cpu_cores_used(const CpuFacts& facts);

// The all-pairs issue limit of one precision, interactions/s: cpu_cores_used x clock x
// fp_pipe_instructions_per_cycle x interactions_per_iteration / fp_pipe_instructions; none when the clock
// or the count is unknown.
std::optional<double> cpu_issue_limit(const CpuFacts& facts, Precision precision);

}  // namespace coalesce
