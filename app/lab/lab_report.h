// Text and JSON renderings of a lab run: the table on stdout and the --json file.
#pragma once

#include <string>
#include <vector>

#include "kernels/lab/lab_types.h"

namespace coalesce {

// Header lines (device, ceiling), then one row per variant, then one lesson per experiment.
std::string lab_table(const lab::LabRun& run, const std::vector<const lab::LabExperiment*>& experiments);

// {"schema", "device", "date", "copy_ceiling_gbps", "settings", "experiments", "rows"}: see docs/lab.md.
std::string lab_json(const lab::LabRun& run, const std::vector<const lab::LabExperiment*>& experiments);

}  // namespace coalesce
