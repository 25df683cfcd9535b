// Paths derived from the user's output paths (see output_paths.h).
#include "app/services/output_paths.h"

#include <sys/stat.h>

#include <optional>

#include "app/services/json_input.h"
#include "app/services/report_schemas.h"
#include "app/services/run_files.h"
#include "sim/errors.h"
#include "sim/path_parts.h"

namespace coalesce {

std::string screenshot_json_path(const std::string& png_path) {
  const std::size_t dot = extension_dot(png_path);
  return (dot == std::string::npos ? png_path : png_path.substr(0, dot)) + ".json";
}

std::string non_finite_state_path(const std::string& state_path) {
  const std::size_t dot = extension_dot(state_path);
  if (dot == std::string::npos) return state_path + ".nonfinite.npy";
  return state_path.substr(0, dot) + ".nonfinite" + state_path.substr(dot);
}

void check_sidecar_replaceable(const OutputFile& sidecar, std::string_view schema_prefix) {
  struct stat st {};
  if (sidecar.to_stdout || ::stat(sidecar.target.c_str(), &st) != 0) return;  // a new name: nothing to lose
  const std::optional<std::string> schema = json_schema_of(sidecar.target);
  if (schema && schema->rfind(schema_prefix, 0) == 0) return;
  const std::string what = schema ? "a coalesce JSON of another kind (" + *schema + ")" : "not a JSON coalesce wrote";
  throw UsageError(sidecar.flag + " " + sidecar.shown + " already exists and is " + what +
                   "; coalesce replaces only its own earlier " + std::string(schema_prefix) +
                   " files there (move that file, or give " + sidecar.flag.substr(0, sidecar.flag.find("'s ")) +
                   " another name)");
}

ScreenshotOutputs check_screenshot_outputs(std::string_view flag, const std::string& png_path) {
  const std::string json_path = screenshot_json_path(png_path);
  if (json_path == png_path)
    throw UsageError(std::string(flag) + " " + png_path + ": the JSON written beside the PNG would be " +
                     json_path + ", the same file; give the PNG a .png name (" +
                     png_path.substr(0, png_path.size() - 5) + ".png)");
  ScreenshotOutputs outputs{check_output_path(flag, png_path),
                            check_output_path(std::string(flag) + "'s JSON", json_path)};
  check_run_files({outputs.png, outputs.json}, {}, {});
  return outputs;
}

}  // namespace coalesce
