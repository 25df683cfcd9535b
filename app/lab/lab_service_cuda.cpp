// The CUDA side of app/lab/lab_service.h: the registry and the runner, dated here.
#include "app/lab/lab_service.h"

#include <string>

#include "app/lab/lab_registry.h"
#include "app/lab/lab_runner.h"
#include "app/services/utc_time.h"

namespace coalesce {

const std::vector<lab::LabExperiment>& lab_experiment_list() {
  return lab::lab_experiments();
}

lab::LabRun run_lab_experiments(const lab::LabSettings& settings,
                                const std::vector<const lab::LabExperiment*>& experiments,
                                const lab::LabProgress& progress) {
  const std::string date = utc_now();
  lab::LabRun run = lab::run_experiments(settings, experiments, progress);
  run.date_utc = date;
  return run;
}

}  // namespace coalesce
