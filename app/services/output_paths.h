// The files a run derives from the paths the user gave: the screenshot's JSON sidecar and the file a
// non-finite state is saved to instead of --save-state. Derived here once, checked before the run.
#pragma once

#include <string>
#include <string_view>

#include "sim/output_file.h"

namespace coalesce {

// out/shot.png -> out/shot.json; out/shot -> out/shot.json. For out/shot.json itself it returns the same
// path: check_paths refuses that, since the JSON would overwrite the PNG.
std::string screenshot_json_path(const std::string& png_path);

// out/state.npy -> out/state.nonfinite.npy: where a state that went NaN or Inf is saved, so that it never
// replaces a good file.
std::string non_finite_state_path(const std::string& state_path);

// A sidecar is a file the user did not name, so it may replace only an earlier sidecar of its own kind: an
// existing file there must be a JSON whose schema starts with `schema_prefix` ("coalesce-screenshot/").
// Throws UsageError naming the file, what it is and the fix.
void check_sidecar_replaceable(const OutputFile& sidecar, std::string_view schema_prefix);

// The PNG at `png_path` and its JSON, both checked (check_output_path) and distinct; `flag` names them in
// messages ("--screenshot", or "screenshot" for the panel's field). Throws UsageError.
struct ScreenshotOutputs {
  OutputFile png;
  OutputFile json;
};
ScreenshotOutputs check_screenshot_outputs(std::string_view flag, const std::string& png_path);

}  // namespace coalesce
