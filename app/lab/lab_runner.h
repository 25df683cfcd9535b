// Runs a list of lab experiments in one process: device facts, the copy ceiling, then each experiment.
#pragma once

#include <vector>

#include "kernels/lab/lab_types.h"

namespace coalesce::lab {

// Measures the copy ceiling first, in the same process, so every row's % of copy compares like with like.
// date_utc is left for the caller (app/services/utc_time.h).
LabRun run_experiments(const LabSettings& settings, const std::vector<const LabExperiment*>& experiments,
                       const LabProgress& progress = {});

}  // namespace coalesce::lab
