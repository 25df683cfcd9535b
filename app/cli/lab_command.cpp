// coalesce lab: runs the access-pattern experiments (docs/lab.md), prints the table, writes the JSON.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "app/cli/commands.h"
#include "app/services/cuda_services.h"
#include "app/lab/lab_report.h"
#include "app/lab/lab_service.h"
#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/printable.h"

namespace coalesce {

namespace {

constexpr int kDefaultRepeats = 20;

lab::LabSettings settings_from(const Options& options) {
  lab::LabSettings settings;
  if (options.lab_size) settings.side = *options.lab_size;  // range checked by the parser
  settings.repeats = options.repeats > 0 ? options.repeats : kDefaultRepeats;
  settings.seed = static_cast<std::uint32_t>(std::random_device{}());
  settings.counters = options.counters;
  settings.precision = options.precision;  // the particles' records; docs/lab.md
  // --no-warmup (scripts/profile): a profiler replays every launch, so warm-up launches only cost time.
  if (options.lab_no_warmup) {
    settings.warmup_calls = 0;
    settings.warmup_ms = 0;
  }
  return settings;
}

std::vector<const lab::LabExperiment*> select_experiments(const std::vector<lab::LabExperiment>& known,
                                                        const std::vector<std::string>& names) {
  std::vector<const lab::LabExperiment*> chosen;
  if (names.empty()) {
    for (const lab::LabExperiment& e : known) chosen.push_back(&e);
    return chosen;
  }
  for (const std::string& name : names) chosen.push_back(&lab_experiment_named(known, name, "--only"));
  return chosen;
}

std::string lab_needs_a_device(const std::string& reason) {
  return "the lab needs a CUDA device: " + reason + "; bench and the viewer run on the CPU without one";
}

// The largest experiment holds three 1-D arrays (vector add); refuse early rather than fail mid-run.
void check_device_memory(const lab::LabSettings& settings) {
  const std::size_t free_bytes = cuda_free_memory();
  if (free_bytes == 0) return;  // unknown: the run itself will say
  const double needed = 3.0 * settings.elements() * sizeof(float);
  if (needed > 0.95 * double(free_bytes))
    throw RuntimeFailure("--size " + std::to_string(settings.side) + " needs " +
                         std::to_string(needed / 1e9).substr(0, 5) + " GB of device memory, " +
                         std::to_string(free_bytes / 1e9).substr(0, 5) + " GB free (try a smaller --size)");
}

}  // namespace

int run_lab(const Options& options) {
  // Usage errors first: a bad flag is exit 2 on every machine, with or without a GPU.
  const lab::LabSettings settings = settings_from(options);
  const std::vector<lab::LabExperiment>& known = lab_experiment_list();
  std::string reason;
  const bool have_device = count_cuda_devices(&reason) > 0;
  // A build without CUDA has no experiments to check --only against: it can only say why.
  if (known.empty()) throw RuntimeFailure(lab_needs_a_device(reason));
  const std::vector<const lab::LabExperiment*> experiments = select_experiments(known, options.lab_only);
  if (!have_device) throw RuntimeFailure(lab_needs_a_device(reason));
  check_device_memory(settings);
  const bool tty = isatty(STDERR_FILENO) != 0;
  const lab::LabRun run =
      run_lab_experiments(settings, experiments, [tty](int index, int count, const lab::LabExperiment* e) {
        if (e == nullptr) {
          std::fprintf(stderr, tty ? "\r\033[Kcoalesce lab: %d/%d done\n" : "coalesce lab: %d/%d done\n",
                       index, count);
          return;
        }
        std::fprintf(stderr, tty ? "\r\033[Kcoalesce lab: [%d/%d] %s: %s" : "coalesce lab: [%d/%d] %s: %s\n",
                     index + 1, count, e->name.c_str(), e->title.c_str());
        std::fflush(stderr);
      });
  // With --json -, stdout carries the JSON alone and the table goes to stderr.
  const bool json_to_stdout = options.json == "-";
  std::fputs(lab_table(run, experiments).c_str(), json_to_stdout ? stderr : stdout);
  if (!options.json.empty()) {
    const std::string text = lab_json(run, experiments);
    write_output(recheck_output_path("--json", options.json, StdoutUse::Allow), {text});
    if (!json_to_stdout) std::fprintf(stderr, "coalesce lab: wrote %s\n", printable(options.json).c_str());
  }
  int failed = 0;
  for (const lab::LabRow& row : run.rows) failed += row.check_ok ? 0 : 1;
  if (failed > 0) {
    std::fprintf(stderr, "coalesce lab: %d row(s) failed their output check (FAIL in the table)\n", failed);
    return 1;
  }
  return 0;
}

}  // namespace coalesce
