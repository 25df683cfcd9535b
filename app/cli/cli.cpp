// The pure command-line parser: argv -> Options, with every error a single line that names the fix.
#include "app/cli/cli.h"

#include <algorithm>
#include <string_view>

#include "app/cli/cli_table.h"
#include "app/services/force_choice.h"
#include "sim/errors.h"
#include "sim/force_method.h"

namespace coalesce {
namespace {

using cli::OptionSpec;

// The known option nearest to `name` among those of `scopes`, or "" when none is a near miss.
std::string closest_option(std::string_view name, unsigned scopes = cli::kAll) {
  std::vector<std::string_view> names;
  for (const OptionSpec* spec = cli::option_table_begin(); spec != cli::option_table_end(); ++spec)
    if ((spec->scopes & scopes) && spec->name != name) names.push_back(spec->name);
  return std::string(cli::nearest(name, names).value_or(""));
}

[[noreturn]] void unknown_option(std::string_view name) {
  const std::string suggestion = closest_option(name);
  std::string message = "unknown option '" + std::string(name) + "'";
  message += suggestion.empty() ? " (see coalesce --help)" : " (did you mean " + suggestion + "?)";
  throw UsageError(message);
}

std::string where_it_belongs(unsigned scopes) {
  std::string places;
  const auto add = [&](unsigned scope, std::string_view name) {
    if (!(scopes & scope)) return;
    if (!places.empty()) places += " or ";
    places += name;
  };
  add(cli::kViewer, "the viewer (no subcommand)");
  add(cli::kBench, "coalesce bench");
  add(cli::kLab, "coalesce lab");
  return places;
}

bool is_switch(const OptionSpec& spec) {
  return spec.value.empty();
}

std::string count_word(int count) {
  return count == 2 ? "two" : std::to_string(count);
}

std::string example_of(const OptionSpec& spec) {
  return std::string(spec.name) + " " + std::string(spec.example);
}

// --compare and --from read saved runs and run nothing; the sweep's flags would be silently ignored.
void check_bench_combinations(const Options& options, const std::vector<std::string>& given_flags) {
  const bool compare = !options.bench_compare.empty();
  const bool from = !options.bench_from.empty();
  const bool forces = std::find(given_flags.begin(), given_flags.end(), "--forces") != given_flags.end();
  if (!compare && !from && forces && options.solver && !has_forces_choice(*options.solver))
    throw UsageError(forces_without_all_pairs("bench --solver attractors",
                                              "drop --forces, or drop --solver to bench both solvers"));
  if (!compare && !from) return;
  const char* reader = compare ? "--compare" : "--from";
  for (const std::string& flag : given_flags) {
    const OptionSpec* spec = cli::find_option(flag);
    if (spec && !spec->reads_saved_runs)
      throw UsageError(flag + " sets up a bench run, but " + reader +
                       " runs nothing: it reads saved runs (drop " + flag + ")");
  }
  if (compare && from)
    throw UsageError("--from names a run to plot and --compare two runs to compare; give one of them");
  if (compare && !options.bench_plot.empty())
    throw UsageError(
        "--plot draws one run; --compare prints two side by side (drop --plot, or plot each "
        "with --plot out.png --from run.json)");
  if (from && options.bench_plot.empty())
    throw UsageError("--from reads a saved run to plot; it needs --plot (try --plot out/bench.png --from " +
                     options.bench_from + ")");
  if (from && !options.json.empty())
    throw UsageError("--json writes a new run's results, but --from runs nothing; " + options.bench_from +
                     " is already that JSON (drop --json)");
}

}  // namespace

Options parse_options(int argc, char** argv) {
  std::vector<std::string> arguments;
  for (int i = 1; i < argc; ++i) arguments.emplace_back(argv[i]);
  return parse_arguments(arguments);
}

Options parse_arguments(const std::vector<std::string>& arguments) {
  Options options;
  std::size_t i = 0;
  if (!arguments.empty() && (arguments[0] == "bench" || arguments[0] == "lab")) {
    options.command = arguments[0] == "bench" ? Command::Bench : Command::Lab;
    ++i;
  }

  std::vector<std::string> given;
  for (; i < arguments.size(); ++i) {
    const std::string& argument = arguments[i];
    if (argument.size() < 2 || argument[0] != '-') {
      if (argument == "bench" || argument == "lab")
        throw UsageError("'" + argument + "' must come first (try coalesce " + argument + " --help)");
      throw UsageError("unexpected argument '" + argument + "'; options start with -- (see coalesce --help)");
    }
    const std::size_t equals = argument.find('=');
    const std::string name = argument.substr(0, equals);
    const OptionSpec* spec = cli::find_option(name);
    if (!spec) unknown_option(name);
    if (!(spec->scopes & cli::scope_of(options.command))) {
      const std::string near = closest_option(name, cli::scope_of(options.command));
      throw UsageError(std::string(spec->name) + " is not an option of " +
                       std::string(cli::command_name(options.command)) + "; it belongs to " +
                       where_it_belongs(spec->scopes) +
                       (near.empty() ? " (see coalesce --help)" : " (did you mean " + near + "?)"));
    }
    if (std::find(given.begin(), given.end(), spec->name) != given.end())
      throw UsageError(std::string(spec->name) + " is given twice; give it once");
    given.emplace_back(spec->name);

    if (spec->count >
        1) {  // --compare A.json B.json, --snapshot-every=K DIR: the first value may be glued on
      const bool glued = equals != std::string::npos;
      const auto missing = [&](std::size_t k) {
        return i + k >= arguments.size() || arguments[i + k].rfind("--", 0) == 0;
      };
      const int following = spec->count - (glued ? 1 : 0);
      for (int k = 1; k <= following; ++k)
        if (missing(static_cast<std::size_t>(k)) || (glued && equals + 1 == argument.size()))
          throw UsageError(std::string(spec->name) + " needs " + count_word(spec->count) + " values, " +
                           std::string(spec->value) + " (try " + example_of(*spec) + ")");
      const cli::ValueContext context{spec->name, spec->example};
      if (glued) spec->apply(options, argument.substr(equals + 1), context);
      for (int k = 0; k < following; ++k) spec->apply(options, arguments[++i], context);
      continue;
    }
    std::string value;
    if (is_switch(*spec)) {
      if (equals != std::string::npos)
        throw UsageError(std::string(spec->name) + " takes no value, got '" + argument + "' (try " +
                         std::string(spec->name) + ")");
    } else if (equals != std::string::npos) {
      value = argument.substr(equals + 1);
    } else {
      // A following flag is not a value; negative numbers ("-1") still are, so their range error shows.
      if (i + 1 >= arguments.size() || arguments[i + 1].rfind("--", 0) == 0)
        throw UsageError(std::string(spec->name) + " needs a value " + std::string(spec->value) + " (try " +
                         example_of(*spec) + ")");
      value = arguments[++i];
    }
    spec->apply(options, value, cli::ValueContext{spec->name, spec->example});
  }
  options.given = given;
  if (!options.show_help && !options.show_version) check_combinations(options, given);
  return options;
}

void check_combinations(const Options& options, const std::vector<std::string>& given_flags) {
  const auto has = [&](std::string_view flag) {
    return std::find(given_flags.begin(), given_flags.end(), flag) != given_flags.end();
  };
  if (options.command == Command::Bench) check_bench_combinations(options, given_flags);
  if (options.command != Command::Viewer) return;
  if (options.steps) {
    // --steps opens no window, so window-only flags would be silently ignored: say so instead.
    for (std::string_view flag :
         {"--frames", "--screenshot", "--sweep", "--sweep-precisions", "--lab-tab", "--no-interop", "--draw",
          "--record", "--camera", "--orbit", "--camera-from", "--brightness", "--no-panel"}) {
      if (has(flag))
        throw UsageError(std::string(flag) +
                         " needs frames to render, but --steps runs with no window (drop " +
                         std::string(flag) + " or --steps)");
    }
  } else {
    // A headless clip of known length ends the run when it ends; otherwise --frames says when.
    if (options.headless && !options.frames && !clip_has_length(options))
      throw UsageError(
          options.record.empty()
              ? "--headless needs --frames N to know when to stop (try --headless --frames 120)"
              : "--headless --record needs --record-seconds S (or --frames N) to know when to stop "
                "(try --record-seconds 10)");
    if (!options.screenshot.empty() && !options.frames)
      throw UsageError("--screenshot needs --frames N, the frame to capture (try --frames 120 --screenshot " +
                       options.screenshot + ")");
  }
  if (has("--monitor-every") && !options.steps)
    throw UsageError(
        "--monitor-every prints during a --steps run; the viewer's panel shows the same live (add "
        "--steps N, or drop --monitor-every)");
  if (options.steps && options.monitor_every && *options.monitor_every > *options.steps)
    throw UsageError("--monitor-every " + std::to_string(*options.monitor_every) +
                     " prints nothing in --steps " + std::to_string(*options.steps) +
                     " (give K <= N, or drop --monitor-every)");
  if (has("--format") && options.save_state.empty() && !options.snapshot_every && options.load_state.empty())
    throw UsageError(
        "--format names the format of state files, but no --save-state, --load-state or "
        "--snapshot-every was given (drop --format)");
  if (options.steps && options.snapshot_every && *options.snapshot_every > *options.steps)
    throw UsageError("--snapshot-every " + std::to_string(*options.snapshot_every) +
                     " writes nothing in --steps " + std::to_string(*options.steps) +
                     " (give K <= N, or drop --snapshot-every)");
  if (options.sweep_precisions && !options.sweep_frames)
    throw UsageError(
        "--sweep-precisions says what --sweep FRAMES sweeps, but no --sweep was given (add --sweep 60, "
        "or drop --sweep-precisions)");
  for (std::string_view flag : {"--record-fps", "--record-seconds"})
    if (has(flag) && options.record.empty())
      throw UsageError(std::string(flag) + " sets up a clip, but no --record PATH was given (add --record " +
                       "out/clip.mp4, or drop " + std::string(flag) + ")");
  if (options.no_interop && options.backend == BackendChoice::Cpu)
    throw UsageError(
        "--no-interop picks the CUDA backend's render path; --backend cpu always uploads from the "
        "host (drop --no-interop)");
  if (options.draw == DrawChoice::Splat && options.backend == BackendChoice::Cpu)
    throw UsageError(
        "--draw splat needs the CUDA backend with CUDA-GL interop; --backend cpu has neither (drop "
        "--backend cpu, or use --draw points)");
  if (options.draw == DrawChoice::Splat && options.no_interop)
    throw UsageError(
        "--draw splat reads the render buffer through CUDA-GL interop, which --no-interop turns off "
        "(drop --no-interop, or use --draw points)");
  if (!options.load_state.empty() && options.particles)
    throw UsageError("--particles conflicts with --load-state, whose file sets N (drop --particles)");
  if (!options.load_state.empty() && options.seed)
    throw UsageError("--seed has no effect with --load-state, whose file sets the state (drop --seed)");
}

}  // namespace coalesce
