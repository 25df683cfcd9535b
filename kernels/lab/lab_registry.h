// The lab's registry: every experiment (docs/lab.md) with its name, byte formula, lesson and run function,
// plus the device facts the reports carry. The CLI, the Lab tab and the tests share it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernels/lab/lab_types.h"

namespace coalesce::lab {

const std::vector<LabExperiment>& lab_experiments();
const LabExperiment* find_lab_experiment(std::string_view name);  // nullptr when unknown

// True when a CUDA device can run the lab; otherwise `reason` says why (CUDA's own words).
bool lab_device_available(std::string* reason);
LabDeviceInfo lab_device_info();

}  // namespace coalesce::lab
