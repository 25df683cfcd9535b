// The one event timer for measurements outside the frame's timing ring (the copy ceiling, the pack-variant
// choice, the lab): warm-up, then the median of timed repeats.
#pragma once

#include <algorithm>
#include <vector>

#include "kernels/cuda_event.h"

namespace coalesce {

struct TimingPlan {
  int warmup_calls = 5;     // warm-up: at least this many calls (0: none, as under Nsight Compute)...
  double warmup_ms = 0.0;   // ...and about this much work (the first launches on fresh buffers run slow)
  int repeats = 15;         // timed calls; the median is reported
};

// Median time of launch() in ms on `stream`, after the plan's warm-up.
template <class Launch>
double median_time_ms(Launch&& launch, const TimingPlan& plan, cudaStream_t stream = nullptr) {
  CudaEvent start;
  CudaEvent stop;
  const int calls = std::max(0, plan.warmup_calls);
  if (calls > 0) {
    start.record(stream);
    for (int i = 0; i < calls; ++i) launch();
    stop.record(stream);
    COALESCE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    const float warm_ms = stop.elapsed_since(start);
    const double per_call = std::max(1e-4, double(warm_ms) / calls);
    const double missing_ms = plan.warmup_ms - warm_ms;
    const int extra = missing_ms > 0 ? static_cast<int>(std::min(5000.0, missing_ms / per_call)) : 0;
    for (int i = 0; i < extra; ++i) launch();
  }
  std::vector<float> times(static_cast<std::size_t>(std::max(1, plan.repeats)));
  for (float& t : times) {
    start.record(stream);
    launch();
    stop.record(stream);
    COALESCE_CUDA_CHECK(cudaEventSynchronize(stop.get()));
    t = stop.elapsed_since(start);
  }
  COALESCE_CUDA_CHECK(cudaGetLastError());  // a failed launch must not be reported as a fast one
  std::nth_element(times.begin(), times.begin() + times.size() / 2, times.end());
  return times[times.size() / 2];
}

}  // namespace coalesce
