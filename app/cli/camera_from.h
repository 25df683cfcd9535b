// --camera-from shot.json: the settings a screenshot or clip JSON recorded, put back into the options so the
// same picture comes again (up to the simulated time). Flags given on the command line win over the file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/services/options.h"

namespace coalesce {

struct CameraFromResult {
  Options options;
  std::vector<std::string> restored;      // "camera", "scene galaxies", "N 65536", ...
  std::vector<std::string> kept;          // flags given on the command line that the file would have set
  std::vector<std::string> not_restored;  // each with the reason: "the simulated time (step 120; ...)"
};

// Reads `options.camera_from` (app/services/json_input.h: bounded size, depth and memory; UsageError naming
// the problem for a file that is no coalesce screenshot or clip JSON, or one a newer coalesce wrote) and
// applies what it can. Relative paths in it are taken from the file's own folder.
CameraFromResult apply_camera_from(const Options& options);
// The same over the file's bytes already in memory (the fuzzer's way in).
CameraFromResult apply_camera_from_bytes(const Options& options, std::string_view bytes);

// The one line the viewer prints about it.
std::string describe(const CameraFromResult& result, const std::string& path);

}  // namespace coalesce
