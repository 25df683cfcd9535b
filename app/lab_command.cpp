// coalesce lab: runs the access-pattern experiments (SPEC section 8), prints the table, writes the JSON.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "app/commands.h"
#include "sim/errors.h"
#include "sim/output_file.h"

#ifdef COALESCE_HAVE_CUDA
#include <unistd.h>

#include <cuda_runtime.h>

#include "app/lab_report.h"
#include "kernels/lab/lab_registry.h"
#include "kernels/lab/lab_runner.h"
#endif

namespace coalesce {

#ifdef COALESCE_HAVE_CUDA
namespace {

constexpr int kDefaultRepeats = 20;

lab::LabSettings settings_from(const Options& options) {
  lab::LabSettings settings;
  if (options.lab_size) settings.side = *options.lab_size;  // range checked by the parser
  settings.repeats = options.repeats > 0 ? options.repeats : kDefaultRepeats;
  settings.seed = static_cast<std::uint32_t>(std::random_device{}());
  // --no-warmup (scripts/profile): a profiler replays every launch, so warm-up launches only cost time.
  if (options.lab_no_warmup) {
    settings.warmup_calls = 0;
    settings.warmup_ms = 0;
  }
  return settings;
}

std::vector<const lab::LabExperiment*> select_experiments(const std::vector<std::string>& names) {
  std::vector<const lab::LabExperiment*> chosen;
  if (names.empty()) {
    for (const lab::LabExperiment& e : lab::lab_experiments()) chosen.push_back(&e);
    return chosen;
  }
  for (const std::string& name : names) {
    const lab::LabExperiment* e = lab::find_lab_experiment(name);
    if (e == nullptr) {
      std::string all;
      for (const lab::LabExperiment& known : lab::lab_experiments())
        all += (all.empty() ? "" : ", ") + known.name;
      throw UsageError("--only: unknown lab experiment '" + name + "' (choose from: " + all + ")");
    }
    chosen.push_back(e);
  }
  return chosen;
}

// The largest experiment holds three 1-D arrays (vector add); refuse early rather than fail mid-run.
void check_device_memory(const lab::LabSettings& settings) {
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) return;
  const double needed = 3.0 * settings.elements() * sizeof(float);
  if (needed > 0.95 * double(free_bytes))
    throw RuntimeFailure("coalesce lab: --size " + std::to_string(settings.side) + " needs " +
                         std::to_string(needed / 1e9).substr(0, 5) + " GB of device memory, " +
                         std::to_string(free_bytes / 1e9).substr(0, 5) + " GB free (try a smaller --size)");
}

}  // namespace

int run_lab(const Options& options) {
  // Usage errors first: a bad flag is exit 2 on every machine, with or without a GPU.
  const lab::LabSettings settings = settings_from(options);
  const std::vector<const lab::LabExperiment*> experiments = select_experiments(options.lab_only);
  std::string reason;
  if (!lab::lab_device_available(&reason))
    throw RuntimeFailure("coalesce lab needs a CUDA device: " + reason +
                         "; bench and the viewer run on the CPU without one");
  check_device_memory(settings);
  const bool tty = isatty(STDERR_FILENO) != 0;
  const lab::LabRun run =
      lab::run_experiments(settings, experiments, [tty](int index, int count, const lab::LabExperiment* e) {
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
    write_output(check_output_path("--json", options.json, StdoutUse::Allow), {text});
    if (!json_to_stdout) std::fprintf(stderr, "coalesce lab: wrote %s\n", options.json.c_str());
  }
  int failed = 0;
  for (const lab::LabRow& row : run.rows) failed += row.check_ok ? 0 : 1;
  if (failed > 0) {
    std::fprintf(stderr, "coalesce lab: %d row(s) failed their output check (FAIL in the table)\n", failed);
    return 1;
  }
  return 0;
}

#else

int run_lab(const Options&) {
  throw RuntimeFailure(
      "coalesce lab needs a CUDA device, and this build has no CUDA support (build it with the CUDA toolkit "
      "installed)");
}

#endif

}  // namespace coalesce
