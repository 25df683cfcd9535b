// The command-line checks that touch the file system, run before any work so a bad path loses nothing:
// every input is a readable regular file, every output (sidecars included) can be replaced safely, and no
// output is an input or another output (app/services/run_files.h).
#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "app/bench/bench_plot.h"
#include "app/cli/cli.h"
#include "app/services/clip_output.h"
#include "app/services/new_folder.h"
#include "app/services/output_paths.h"
#include "app/services/report_schemas.h"
#include "app/services/run_files.h"
#include "sim/errors.h"
#include "sim/input_file.h"
#include "sim/output_file.h"
#include "sim/scene.h"
#include "sim/state_file.h"

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

// An output whose directory is a --snapshot-every folder that does not exist yet: the real refusal (it would
// be inside the series' folder) before "create the directory first", which would only lead to it.
void refuse_inside_new_folder(const std::string& flag, const std::string& path, const NewFolder& folder) {
  if (folder.exists) return;  // an existing folder: check_run_files matches it by identity
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::path parent = fs::absolute(fs::path(path).parent_path(), error).lexically_normal();
  const fs::path dir = fs::absolute(fs::path(folder.directory), error).lexically_normal();
  if (error || parent.empty() || (parent / "") != (dir / "")) return;
  throw UsageError(flag + " " + path + " is inside --snapshot-every's folder " + folder.shown +
                   ", which receives the snapshots; write it elsewhere");
}

// --format where it can only mean the input's format and contradicts its extension: refused, as it would be
// for an output, rather than ignored. Where it names a series' or an extension-less output's format, it
// is for them.
void check_input_format(const Options& options) {
  const std::optional<StateFormat> named = format_of_extension(options.load_state);
  const std::optional<StateFormat> given = options.state_format;
  if (!named || !given || *named == *given) return;
  if (*named == StateFormat::Tipsy && *given == StateFormat::TipsyNative) return;  // either byte order reads
  const bool for_an_output =
      options.snapshot_every ||
      (!options.save_state.empty() && output_format("--save-state", options.save_state, given) == *given);
  if (for_an_output) return;
  throw UsageError("--load-state " + options.load_state + " names a " + std::string(format_name(*named)) +
                   " file, but --format says " + std::string(format_name(*given)) +
                   " (drop --format, or give the file the extension of its format)");
}

}  // namespace

void check_paths(const Options& options) {
  check_scene(options.scene);
  if (!options.load_state.empty()) check_input_path("--load-state", options.load_state);
  for (const std::string& run : options.bench_compare) check_input_path("--compare", run);
  if (!options.bench_from.empty()) check_input_path("--from", options.bench_from);

  std::vector<OutputFile> outputs;
  std::vector<OutputFolder> folders;
  std::vector<std::pair<OutputFile, std::string_view>> sidecars;  // with the schema they may replace
  if (!options.screenshot.empty()) {
    const ScreenshotOutputs shot = check_screenshot_outputs("--screenshot", options.screenshot);
    outputs = {shot.png, shot.json};
    sidecars.emplace_back(shot.json, kScreenshotSchemaPrefix);
  }
  if (!options.load_state.empty()) {
    check_input_format(options);
    input_format("--load-state", options.load_state, options.state_format);
  }
  std::optional<NewFolder> series;
  if (options.snapshot_every) {
    series = check_new_folder("--snapshot-every", options.snapshot_dir, "out/snaps");
    folders.push_back({"--snapshot-every", series->shown, series->directory, "the snapshots"});
  }
  if (!options.save_state.empty()) {
    const StateFormat format = output_format("--save-state", options.save_state, options.state_format);
    for (const std::string& path : {options.save_state, non_finite_state_path(options.save_state)}) {
      const std::string flag = path == options.save_state ? "--save-state" : "--save-state's non-finite copy";
      if (series) refuse_inside_new_folder(flag, path, *series);
      outputs.push_back(check_output_path(flag, path));
      for (const std::string& companion : companion_paths(path, format))
        outputs.push_back(check_output_path(flag + "'s IDs", companion));
    }
  }
  if (!options.json.empty()) outputs.push_back(check_output_path("--json", options.json, StdoutUse::Allow));
  if (!options.record.empty()) {
    const ClipOutputs clip = check_clip_outputs("--record", options.record);
    outputs.push_back(clip.video);
    if (clip.format == ClipFormat::PngSequence) folders.push_back({"--record", clip.shown, clip.directory});
    outputs.push_back(clip.json);
    sidecars.emplace_back(clip.json, kClipSchemaPrefix);
  }
  if (!options.bench_plot.empty()) {
    if (plot_format(options.bench_plot) == PlotFormat::Png && !chart_png_built())
      throw UsageError("--plot " + options.bench_plot +
                       ": this build has no PNG plot (built without Dear ImGui); use out.svg");
    outputs.push_back(check_output_path("--plot", options.bench_plot));
  }
  check_run_files(outputs, folders, run_inputs(options));
  // After the inputs: a sidecar over an input is named as that, not as a file of the user's.
  for (const auto& [sidecar, schema] : sidecars) check_sidecar_replaceable(sidecar, schema);
}

}  // namespace coalesce
