// The screenshot's JSON: every number the panel shows, the settings, the device and the driver.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/viewer/viewer_model.h"

namespace coalesce {

// The report as a JSON object (schema coalesce-screenshot/3, docs/viewer.md); the clip JSON embeds it.
nlohmann::json screenshot_report(const ViewerModel& model, const ViewerControls& controls, int width, int height);
// The same, as the text of the file.
std::string screenshot_json(const ViewerModel& model, const ViewerControls& controls, int width, int height);

}  // namespace coalesce
