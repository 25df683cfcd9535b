// The lab's door to the GPU: lab_service_cuda.cpp in a build with CUDA, else lab_service_none.cpp
// (app/lab/CMakeLists.txt picks one), so the lab command and the Lab tab never ask whether CUDA is built.
#pragma once

#include <string>
#include <vector>

#include "kernels/lab/lab_types.h"  // plain C++: the lab's settings, experiments and results
#include "sim/errors.h"

namespace coalesce {

// The lab's experiments in registry order; empty in a build without CUDA, which has no lab to run.
const std::vector<lab::LabExperiment>& lab_experiment_list();

// The experiment of `known` called `name`; a UsageError naming `flag` and every known name otherwise.
inline const lab::LabExperiment& lab_experiment_named(const std::vector<lab::LabExperiment>& known,
                                                      const std::string& name, const std::string& flag) {
  std::string all;
  for (const lab::LabExperiment& e : known) {
    if (e.name == name) return e;
    all += (all.empty() ? "" : ", ") + e.name;
  }
  throw UsageError(flag + ": unknown lab experiment '" + name + "' (choose from: " + all + ")");
}

// Runs `experiments` on device 0 (the device probe, the copy ceiling, then each one) and dates the run.
lab::LabRun run_lab_experiments(const lab::LabSettings& settings,
                                const std::vector<const lab::LabExperiment*>& experiments,
                                const lab::LabProgress& progress = {});

}  // namespace coalesce
