// Runs a bench plan on a backend per N: warm-up, timed repeats, medians from the backend's own timings.
#pragma once

#include <functional>

#include "app/bench_types.h"
#include "app/options.h"

namespace coalesce {

// `progress` receives "step/total what" lines as the sweep advances.
std::vector<BenchRow> run_bench_plan(const BenchPlan& plan, BackendChoice choice, BenchResult& result,
                                     const std::function<void(int, int, const std::string&)>& progress);

}  // namespace coalesce
