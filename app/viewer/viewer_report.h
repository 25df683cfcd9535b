// The screenshot's JSON: every number the panel shows, the settings, the device and the driver.
#pragma once

#include <string>

#include "app/viewer/viewer_model.h"

namespace coalesce {

std::string screenshot_json(const ViewerModel& model, const ViewerControls& controls, int width, int height);

}  // namespace coalesce
