// How a lab row is timed and counted: the event timer with the lab's warm-up, then one counter pass. Plain
// C++ over the CUDA runtime, so experiments whose kernels live outside kernels/lab (app/lab/lab_splat.cpp)
// time their rows the way every .cu experiment does.
#pragma once

#include <functional>
#include <utility>

#include "kernels/event_timing.h"
#include "kernels/lab/lab_types.h"
#include "sim/nvtx_range.h"

namespace coalesce::lab {

// Median time of launch() in ms after the settings' warm-up (the first launches on fresh buffers run slow
// on the H100): the project's one event timer, kernels/event_timing.h.
template <class Launch>
double median_time_ms(Launch&& launch, const LabSettings& settings) {
  return coalesce::median_time_ms(std::forward<Launch>(launch),
                                  TimingPlan{settings.warmup_calls, settings.warmup_ms, settings.repeats});
}

// One more run of `launch` under the context's counter pass (kernel replay), or why there is none.
CounterReading count_launch(const LabContext& context, const std::function<void()>& launch);

// The median time of launch() (median_time_ms above), then its counter pass: the timed launches carry
// no profiling.
template <class Launch>
TimedRow timed_row(Launch&& launch, const LabContext& context) {
  TimedRow row;
  {
    const NvtxRange range("timed");  // inside "lab EXPERIMENT": the launches the median comes from
    row.ms = median_time_ms(launch, context.settings);
  }
  const NvtxRange range("counter pass");
  row.counters = count_launch(context, std::function<void()>(launch));
  return row;
}

}  // namespace coalesce::lab
