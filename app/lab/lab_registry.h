// The lab's registry: every experiment (docs/lab.md) with its name, byte formula, lesson and run
// function. The CLI, the Lab tab and the tests share it; the device facts come from kernels/device_probe.h.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernels/lab/lab_types.h"

namespace coalesce::lab {

const std::vector<LabExperiment>& lab_experiments();
const LabExperiment* find_lab_experiment(std::string_view name);  // nullptr when unknown

}  // namespace coalesce::lab
