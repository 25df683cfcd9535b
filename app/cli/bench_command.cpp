// coalesce bench: builds the sweep from the options, runs it with a progress line on stderr, prints the
// table and writes the JSON and the plot (checked writable before anything runs); --compare and --from read
// saved runs instead of running one.
#include <cstdio>

#include <unistd.h>

#include "app/bench/bench_compare.h"
#include "app/bench/bench_file.h"
#include "app/bench/bench_plot.h"
#include "app/bench/bench_report.h"
#include "app/bench/bench_runner.h"
#include "app/cli/commands.h"
#include "app/services/cuda_services.h"
#include "app/services/utc_time.h"
#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/printable.h"

namespace coalesce {

namespace {

bool cuda_expected(BackendChoice choice) {
  return choice != BackendChoice::Cpu && count_cuda_devices(nullptr) > 0;
}

std::string reconstructed_command_line(const Options& o, const BenchPlan& plan) {
  std::string line = "coalesce bench";
  if (o.solver) line += " --solver " + std::string(method_info(*o.solver).solver_name);
  if (!o.bench_particles.empty()) {
    line += " --particles ";
    for (std::size_t i = 0; i < o.bench_particles.size(); ++i)
      line += (i ? "," : "") + std::to_string(o.bench_particles[i]);
  }
  if (!o.bench_layouts.empty()) {
    line += " --layouts ";
    for (std::size_t i = 0; i < o.bench_layouts.size(); ++i)
      line += (i ? "," : "") + std::string(to_string(o.bench_layouts[i]));
  }
  if (!o.bench_precisions.empty()) {
    line += " --precision ";
    for (std::size_t i = 0; i < o.bench_precisions.size(); ++i)
      line += (i ? "," : "") + std::string(to_string(o.bench_precisions[i]));
  }
  if (o.backend != BackendChoice::Auto)
    line += o.backend == BackendChoice::Cuda ? " --backend cuda" : " --backend cpu";
  line += " --repeats " + std::to_string(plan.repeats);
  if (!plan.counters) line += " --no-counters";
  if (!o.json.empty()) line += " --json " + o.json;
  if (!o.bench_plot.empty()) line += " --plot " + o.bench_plot;
  return line;
}

// --plot: the chart of `run`, written atomically (the path was checked before any work).
void write_plot(const Options& options, const BenchResult& run, const std::string& source) {
  const Chart chart = bench_chart(run, source);
  const std::string bytes = plot_bytes(chart, *plot_format(options.bench_plot));
  write_output(recheck_output_path("--plot", options.bench_plot), {bytes});
  std::fprintf(stderr, "coalesce: wrote %s\n", printable(options.bench_plot).c_str());
}

// --compare A B: reads both runs and prints (or writes) the comparison; runs nothing.
int run_compare(const Options& options) {
  const SavedBench a = read_bench_json("--compare", options.bench_compare[0]);
  const SavedBench b = read_bench_json("--compare", options.bench_compare[1]);
  const Comparison comparison = compare_runs(a, b);
  const bool json_to_stdout = options.json == "-";
  print_comparison(comparison, a, b, json_to_stdout ? stderr : stdout);
  if (!options.json.empty()) {
    write_output(recheck_output_path("--json", options.json, StdoutUse::Allow), {comparison_json(comparison, a, b)});
    if (!json_to_stdout) std::fprintf(stderr, "coalesce: wrote %s\n", printable(options.json).c_str());
  }
  return 0;
}

}  // namespace

int run_bench(const Options& options) {
  if (!options.bench_compare.empty()) return run_compare(options);
  if (!options.bench_from.empty()) {
    write_plot(options, read_bench_json("--from", options.bench_from).run, options.bench_from);
    return 0;
  }
  BenchResult result;
  result.plan = make_bench_plan(options, cuda_expected(options.backend));
  result.command_line = reconstructed_command_line(options, result.plan);
  result.date_utc = utc_now();
  // One rewritten line on a terminal; one line per step in a log file.
  const bool terminal = isatty(fileno(stderr)) != 0;
  result.rows = run_bench_plan(
      result.plan, options.backend, result, [terminal](int step, int total, const std::string& what) {
        if (terminal) {
          std::fprintf(stderr, "\r\033[K[%d/%d] %s%s", step, total, what.c_str(), step == total ? "\n" : "");
        } else {
          std::fprintf(stderr, "[%d/%d] %s\n", step, total, what.c_str());
        }
        std::fflush(stderr);
      });
  // With --json -, stdout carries the JSON alone and the table goes to stderr.
  const bool json_to_stdout = options.json == "-";
  print_bench_table(result, json_to_stdout ? stderr : stdout);
  if (!options.json.empty()) {
    const std::string text = bench_json(result);
    write_output(recheck_output_path("--json", options.json, StdoutUse::Allow), {text});
    if (!json_to_stdout) std::fprintf(stderr, "coalesce: wrote %s\n", printable(options.json).c_str());
  }
  if (!options.bench_plot.empty()) write_plot(options, result, "the run");
  return 0;
}

}  // namespace coalesce
