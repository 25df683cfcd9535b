// The counter pass of one lab row (kernels/lab/lab_timing.h): one more launch under the range profiler.
#include "kernels/lab/lab_timing.h"

#include <exception>
#include <string>
#include <vector>

namespace coalesce::lab {

CounterReading count_launch(const LabContext& context, const std::function<void()>& launch) {
  if (context.counter_pass == nullptr) return {false, context.counters_reason, {}, 0};
  try {
    const std::vector<KernelCounters> kernels = context.counter_pass->measure_kernels(launch);
    if (kernels.empty())
      return {false,
              "hardware counters: no kernel launched (the range profiler counts kernels, not copies)",
              {},
              0};
    std::vector<RowCounters> parts;
    for (const KernelCounters& k : kernels) parts.push_back(k.counters);
    return {true, "", combine(parts), static_cast<int>(parts.size())};
  } catch (const std::exception& error) {
    return {false, std::string("hardware counters failed: ") + error.what(), {}, 0};
  }
}

}  // namespace coalesce::lab
