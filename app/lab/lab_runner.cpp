// The lab's driver: the copy ceiling, then each chosen experiment, collected into one LabRun.
#include "app/lab/lab_runner.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <memory>

#include "kernels/cuda_check.h"
#include "kernels/device_probe.h"
#include "kernels/lab/lab_experiments.h"
#include "sim/nvtx_range.h"

namespace coalesce::lab {

LabRun run_experiments(const LabSettings& settings, const std::vector<const LabExperiment*>& experiments,
                       const LabProgress& progress) {
  LabRun run;
  run.settings = settings;
  int device = 0;
  COALESCE_CUDA_CHECK(cudaGetDevice(&device));
  run.device = query_device_info(device);
  const int count = static_cast<int>(experiments.size());
  run.copy_gbps = measure_copy_ceiling(settings);
  LabContext context{settings, run.copy_gbps, nullptr, ""};
  std::unique_ptr<CounterPass> pass;
  if (settings.counters) {
    pass = make_counter_pass(device, context.counters_reason);
    if (!pass) std::fprintf(stderr, "coalesce: %s\n", context.counters_reason.c_str());
  } else {
    context.counters_reason = "hardware counters off (--no-counters)";
  }
  context.counter_pass = pass.get();
  run.counters_reason = context.counters_reason;
  for (int i = 0; i < count; ++i) {
    if (progress) progress(i, count, experiments[i]);
    std::vector<LabRow> rows;
    {
      const NvtxRange range("lab " + experiments[i]->name);  // docs/profiling.md
      rows = experiments[i]->run(context);
    }
    run.rows.insert(run.rows.end(), rows.begin(), rows.end());
    // Surface any asynchronous failure here, while we still know which experiment caused it.
    COALESCE_CUDA_CHECK(cudaDeviceSynchronize());
  }
  if (progress) progress(count, count, nullptr);
  return run;
}

}  // namespace coalesce::lab
