// The command-line checks that touch the file system, run before any work so a bad path loses nothing:
// every input is a readable regular file, every output (sidecars included) can be replaced safely, and no
// two outputs are the same file.
#include <sys/stat.h>

#include <string>
#include <vector>

#include "app/bench_plot.h"
#include "app/cli.h"
#include "app/clip_output.h"
#include "app/output_paths.h"
#include "sim/errors.h"
#include "sim/input_file.h"
#include "sim/output_file.h"
#include "sim/scene.h"

namespace coalesce {
namespace {

std::string preset_list() {
  std::string list;
  for (const std::string& name : preset_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

void check_scene(const std::string& scene) {
  if (is_preset(scene)) return;
  struct stat st {};
  if (::stat(scene.c_str(), &st) != 0)
    throw UsageError("--scene '" + scene + "' is neither a preset (" + preset_list() +
                     ") nor an existing file (check the name or path)");
  check_input_path("--scene", scene);
}

bool same_file(const std::string& a, const std::string& b) {
  struct stat sa {}, sb {};
  return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
         sa.st_ino == sb.st_ino;
}

// An output that is one of the saved runs being read would replace it: refuse before anything is written.
void check_not_an_input(const std::vector<OutputFile>& outputs, std::string_view flag,
                        const std::string& input) {
  for (const OutputFile& out : outputs)
    if (!out.to_stdout && !out.empty() && same_file(out.target, input))
      throw UsageError(out.flag + " " + out.shown + " is " + std::string(flag) + "'s input " + input +
                       ", which it would replace (write to another path)");
}

}  // namespace

void check_paths(const Options& options) {
  check_scene(options.scene);
  if (!options.load_state.empty()) check_input_path("--load-state", options.load_state);
  std::vector<OutputFile> outputs;
  if (!options.screenshot.empty()) {
    const ScreenshotOutputs shot = check_screenshot_outputs("--screenshot", options.screenshot);
    outputs = {shot.png, shot.json};
  }
  if (!options.save_state.empty()) {
    outputs.push_back(check_output_path("--save-state", options.save_state));
    outputs.push_back(
        check_output_path("--save-state's non-finite copy", non_finite_state_path(options.save_state)));
  }
  if (!options.json.empty()) outputs.push_back(check_output_path("--json", options.json, StdoutUse::Allow));
  if (!options.record.empty()) {
    const ClipOutputs clip = check_clip_outputs("--record", options.record);
    outputs.push_back(clip.video);
    // A PNG sequence's directory is an output too: no other output may have its name.
    if (clip.format == ClipFormat::PngSequence)
      outputs.push_back(OutputFile{"--record", clip.shown, clip.directory, false});
    outputs.push_back(clip.json);
  }
  for (const std::string& run : options.bench_compare) check_input_path("--compare", run);
  if (!options.bench_from.empty()) check_input_path("--from", options.bench_from);
  if (!options.bench_plot.empty()) {
    if (plot_format(options.bench_plot) == PlotFormat::Png && !chart_png_built())
      throw UsageError("--plot " + options.bench_plot +
                       ": this build has no PNG plot (built without Dear ImGui); use out.svg");
    outputs.push_back(check_output_path("--plot", options.bench_plot));
  }
  for (const std::string& run : options.bench_compare) check_not_an_input(outputs, "--compare", run);
  if (!options.bench_from.empty()) check_not_an_input(outputs, "--from", options.bench_from);
  check_distinct_outputs(outputs);
}

}  // namespace coalesce
