// The bench's plan from the options (the default sweeps live here) and its run on a backend per N: warm-up,
// timed repeats, medians from the backend's own timings.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/bench/bench_types.h"
#include "app/services/options.h"
#include "sim/scene.h"

namespace coalesce {

// The sweep `options` ask for; without --particles and --repeats, the defaults of a GPU or of the CPU
// (docs/bench-json.md, "The default sweeps"). `gpu`: whether the run will have a CUDA device.
BenchPlan make_bench_plan(const Options& options, bool gpu);

// The kernels a method's sweep times. All-pairs: the forces alone; integrate, pack and convert take a few
// microseconds at all-pairs sizes, where they time launches rather than memory, so they are measured in
// the attractors sweep (its row's bench_memory_kernels), at sizes that move real bytes.
std::vector<std::string> swept_kernels(ForceMethod method);

// The most state the CPU's default attractors sweep aims past: 4 x a 32 MiB L3. A guest whose CPUID reports
// its socket's L3 (508 MiB) chose N = 38,404,096, and its default bench ran past 15 minutes on 2 shared
// cores (issue 41); where the cache does hold this much, the rows say so (from_cache) and meet ceilings
// of their own size.
inline constexpr std::size_t kCpuDefaultStateBytes = std::size_t{128} << 20;

// The CPU's default attractors N: the smallest multiple of 65,536 whose smallest state (28 bytes a particle)
// is as large as one copy-ceiling buffer (4 x the last-level cache, sim/cpu_info.h) or kCpuDefaultStateBytes,
// the smaller, so the memory-bound rows stream from memory as the copy does and what the forces pass leaves
// in the cache is a small part.
int cpu_attractor_particles(std::optional<std::size_t> last_level_cache_bytes);

// The scene a bench row starts from (its row's bench_scene: the plummer sphere for all-pairs, the swirl for
// attractors), n bodies.
Scene bench_scene(ForceMethod method, int n);

// `progress` receives "step/total what" lines as the sweep advances.
std::vector<BenchRow> run_bench_plan(const BenchPlan& plan, BackendChoice choice, BenchResult& result,
                                     const std::function<void(int, int, const std::string&)>& progress);

}  // namespace coalesce
