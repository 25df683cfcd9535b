// The screenshot JSON's `clocks` and `hardware` blocks (issue 11; schema in docs/viewer.md).
#pragma once

#include <nlohmann/json.hpp>

#include "app/viewer/viewer_hardware.h"

namespace coalesce {

// The SM and memory clocks measured over the run next to their maximums, with notes; or why not.
nlohmann::json clocks_json(const ViewerHardware& hardware);
// Measured DRAM GB/s: summary, per layout beside the computed GB/s, and the last samples; or why not.
nlohmann::json hardware_json(const ViewerHardware& hardware);

}  // namespace coalesce
