// --camera-from shot.json: the settings a screenshot or clip JSON recorded, put back into the options so the
// same picture comes again (up to the simulated time). Flags given on the command line win over the file.
#pragma once

#include <string>
#include <vector>

#include "app/options.h"

namespace coalesce {

struct CameraFromResult {
  Options options;
  std::vector<std::string> restored;      // "camera", "scene galaxies", "N 65536", ...
  std::vector<std::string> kept;          // flags given on the command line that the file would have set
  std::vector<std::string> not_restored;  // each with the reason: "the simulated time (step 120; ...)"
};

// Reads `options.camera_from` (bounded, regular file; UsageError naming the problem for a file that is no
// coalesce screenshot or clip JSON) and applies what it can.
CameraFromResult apply_camera_from(const Options& options);

// The one line the viewer prints about it.
std::string describe(const CameraFromResult& result, const std::string& path);

}  // namespace coalesce
