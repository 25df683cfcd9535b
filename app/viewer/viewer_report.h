// The screenshot's JSON: every number the panel shows, the settings, the device and the driver.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "app/viewer/viewer_model.h"

namespace coalesce {

// The report as a JSON object (schema coalesce-screenshot/3, docs/viewer.md); the clip JSON embeds it.
nlohmann::json screenshot_report(const ViewerModel& model, const ViewerControls& controls, int width, int height);
// The same, as the text of the file.
// The report as text for the JSON at `json_path`: the scene and state files it names are written relative to
// that file's folder, where --camera-from looks for them (or absolute when no relative path reaches them).
std::string screenshot_json(const ViewerModel& model, const ViewerControls& controls, int width, int height,
                            const std::string& json_path);

// settings.scene_source (a file, not a preset) and settings.state_file of `report`, rewritten relative to the
// folder of `json_path`, so a shot taken from any directory restores the same files.
void name_files_from(nlohmann::json& report, const std::string& json_path);

}  // namespace coalesce
