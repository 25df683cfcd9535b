// The screenshot's JSON: every number the panel shows, the settings, the device and the driver.
#pragma once

#include <string>

#include "app/viewer_model.h"

namespace coalesce {

// Same path as the PNG with the extension replaced by .json ("shot.png" -> "shot.json").
std::string json_path_for(const std::string& png_path);

std::string screenshot_json(const ViewerModel& model, const ViewerControls& controls, int width, int height);

// Writes the text; returns an empty string on success, else one line naming the path and the reason.
std::string write_text_file(const std::string& path, const std::string& text);

}  // namespace coalesce
