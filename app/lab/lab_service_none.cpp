// app/lab/lab_service.h for builds without CUDA: no experiments, and a run says why it cannot happen.
#include "app/lab/lab_service.h"

#include <string>

#include "app/services/cuda_services.h"
#include "sim/errors.h"

namespace coalesce {

const std::vector<lab::LabExperiment>& lab_experiment_list() {
  static const std::vector<lab::LabExperiment> none;
  return none;
}

lab::LabRun run_lab_experiments(const lab::LabSettings&, const std::vector<const lab::LabExperiment*>&,
                                const lab::LabProgress&) {
  std::string why;
  count_cuda_devices(&why);
  throw RuntimeFailure("the lab needs a CUDA device: " + why);
}

}  // namespace coalesce
