// The screenshot JSON's `clocks` and `hardware` blocks (issue 11; schema in docs/viewer.md).
#pragma once

#include <nlohmann/json.hpp>

#include "app/viewer/viewer_hardware.h"

namespace coalesce {

// The SM and memory clocks the sampler measured over the run next to their maximums, with a note beyond
// 5%; or why not. The keys of bench's and lab's `clocks` block, plus min, max and samples.
nlohmann::json sampled_clocks_json(const ViewerHardware& hardware, const DeviceInfo& device);
// Measured DRAM GB/s: summary, per layout beside the computed GB/s (per_layout: in `precision`, the run's
// now; per_layout_by_precision: in each), and the last samples; or why not.
nlohmann::json sampled_hardware_json(const ViewerHardware& hardware, Precision precision);

}  // namespace coalesce
