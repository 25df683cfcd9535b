// What the commands do under mpirun with several ranks beyond their one-process selves: the check that every
// rank has rank 0's command line, and bench's scaling run (docs/mpi.md): all-pairs steps over K ranks, and
// over rank 0 alone in the same job, per N, layout and precision, with each rank's compute and all-gather
// time, as a table and as JSON (docs/bench-json.md, "Ranks").
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/bench/bench_runner.h"
#include "app/cli/commands.h"
#include "app/ranks/rank_agreement.h"
#include "app/ranks/rank_start.h"
#include "app/ranks/rank_stepper.h"
#include "app/services/backend_factory.h"
#include "app/services/cuda_services.h"
#include "app/services/force_choice.h"
#include "app/services/number_text.h"
#include "app/services/report_schemas.h"
#include "app/services/utc_time.h"
#include "sim/errors.h"
#include "sim/printable.h"
#include "sim/scene.h"
#include "sim/output_file.h"

namespace coalesce {

namespace {

// Each timed repeat runs at least this long, so the all-gather's and the barrier's microseconds are not
// the measurement.
constexpr double kRepeatSeconds = 0.2;
constexpr int kMostStepsPerRepeat = 50;
constexpr int kDefaultRepeats = 3;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 ? values[mid] : 0.5 * (values[mid - 1] + values[mid]);
}

struct RankTimes {
  double step_s = 0;      // one step over K ranks, between barriers (rank 0's clock)
  double one_rank_s = 0;  // one whole step on rank 0 alone, same job
  std::vector<double> compute_s, exchange_s;  // per rank, per step
  int steps_per_repeat = 0;
};

struct RanksRow {
  int particles;
  Layout layout;
  Precision precision;
  RankTimes times;
};

// Steps per repeat: enough for kRepeatSeconds at the rate of one step already run, the same on every rank.
int steps_for(Ranks& ranks, double one_step_s) {
  const double wanted = one_step_s > 0 ? std::ceil(kRepeatSeconds / one_step_s) : kMostStepsPerRepeat;
  return static_cast<int>(ranks.max_over_ranks(std::clamp(static_cast<long long>(wanted), 1LL,
                                                          static_cast<long long>(kMostStepsPerRepeat))));
}

RankTimes time_row(Backend& backend, Ranks& ranks, const SimParams& params, const InitialState& initial,
                   int repeats) {
  RankTimes out;
  RankStepper stepper(backend, ranks);
  SimClock clock;
  // Warm-up and the steps per repeat: one step over all ranks.
  ranks.barrier();
  auto start = std::chrono::steady_clock::now();
  stepper.step(params, clock.time(params.dt), 0);
  backend.synchronize();
  out.steps_per_repeat = steps_for(ranks, seconds_since(start));

  std::vector<double> step_s, compute_s, exchange_s;
  for (int r = 0; r < repeats; ++r) {
    stepper.reset_times();
    ranks.barrier();
    start = std::chrono::steady_clock::now();
    for (int s = 0; s < out.steps_per_repeat; ++s) {
      stepper.step(params, clock.time(params.dt), 0);
      ++clock.step;
    }
    backend.synchronize();
    ranks.barrier();
    step_s.push_back(seconds_since(start) / out.steps_per_repeat);
    compute_s.push_back(stepper.compute_seconds() / out.steps_per_repeat);
    exchange_s.push_back(stepper.exchange_seconds() / out.steps_per_repeat);
  }
  out.step_s = median(step_s);
  out.compute_s = ranks.gather_values(median(compute_s));
  out.exchange_s = ranks.gather_values(median(exchange_s));

  // One rank in the same job: rank 0 steps every body from the same start while the others wait.
  agreed(ranks, [&] {
    if (!ranks.root()) return;
    initial.upload_to(backend);
    backend.step(params, 0.0);  // warm-up
    backend.synchronize();
    std::vector<double> one;
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      for (int s = 0; s < out.steps_per_repeat; ++s) backend.step(params, 0.0);
      backend.synchronize();
      one.push_back(seconds_since(t0) / out.steps_per_repeat);
    }
    out.one_rank_s = median(one);
  });
  ranks.barrier();
  return out;
}

// What the table and the JSON both show of a row, worked out once.
struct RowFigures {
  double interactions_per_second;  // N^2 / step
  double efficiency;               // one-rank step / (K x step)
  double allgather_share;          // the slowest rank's all-gather / step
};

RowFigures figures_of(const RanksRow& row, int ranks) {
  const double n = row.particles;
  const RankTimes& t = row.times;
  const double worst = *std::max_element(t.exchange_s.begin(), t.exchange_s.end());
  return {n * n / t.step_s, t.one_rank_s / (ranks * t.step_s), worst / t.step_s};
}

nlohmann::json row_json(const RanksRow& row, int ranks) {
  const double n = row.particles;
  const RankTimes& t = row.times;
  const RankSlices slices = slice_bodies(row.particles, ranks);
  const RowFigures f = figures_of(row, ranks);
  nlohmann::json per_rank = nlohmann::json::array();
  for (int r = 0; r < ranks; ++r) {
    const auto i = static_cast<std::size_t>(r);
    const double pulls = static_cast<double>(slices.count[i]) * n;
    per_rank.push_back({{"rank", r},
                        {"bodies", slices.count[i]},
                        {"compute_ms", 1e3 * t.compute_s[i]},
                        {"allgather_ms", 1e3 * t.exchange_s[i]},
                        {"interactions_per_second", pulls / t.step_s},
                        {"interactions_per_second_computing",
                         t.compute_s[i] > 0 ? nlohmann::json(pulls / t.compute_s[i]) : nlohmann::json(nullptr)}});
  }
  return {{"particles", row.particles},
          {"layout", to_string(row.layout)},
          {"precision", to_string(row.precision)},
          {"steps_per_repeat", t.steps_per_repeat},
          {"step_ms", 1e3 * t.step_s},
          {"one_rank_step_ms", 1e3 * t.one_rank_s},
          {"interactions_per_second", f.interactions_per_second},
          {"one_rank_interactions_per_second", n * n / t.one_rank_s},
          {"strong_scaling_efficiency", f.efficiency},
          {"allgather_share_of_step", f.allgather_share},
          {"ranks", per_rank}};
}

}  // namespace

void check_one_command_line(Ranks& ranks, int argc, char** argv) {
  if (!ranks.distributed()) return;
  std::string line;
  for (int i = 1; i < argc; ++i) line += std::string(argv[i]) + '\0';
  const auto hash = static_cast<long long>(std::hash<std::string>{}(line) >> 2);
  // Equal everywhere exactly when the largest hash and the largest negated hash agree.
  const bool same = ranks.max_over_ranks(hash) == -ranks.max_over_ranks(-hash);
  if (same) return;
  if (!ranks.root()) throw StoppedWithOtherRanks(2);
  throw UsageError("the " + std::to_string(ranks.size()) +
                   " ranks were started with different command lines; start every rank with one (mpirun -n K "
                   "coalesce ...)");
}

int run_bench(const Options& options, Ranks& ranks) {
  if (!ranks.distributed()) return run_bench(options);
  const bool root = ranks.root();
  // --compare and --from read saved runs and step nothing, so there is nothing to share: rank 0 does it.
  if (!options.bench_compare.empty() || !options.bench_from.empty()) {
    int code = 0;
    agreed(ranks, [&] {
      if (root) code = run_bench(options);
    });
    return code;
  }
  BenchPlan plan;
  agreed(ranks, [&] {
    // Before --solver: the fix each message gives must not lead to the other.
    if (!options.bench_plot.empty())
      throw UsageError("--plot draws a run of one process; a run over ranks writes its table and --json only "
                       "(drop --plot)");
    // Ranks measure the exchange of the sources: a family whose bodies pull bodies.
    if (!options.solver || !method_info(*options.solver).sources_move)
      throw UsageError("bench under mpirun measures all-pairs across ranks; add --solver all-pairs");
    (void)sliced_forces(*options.solver, options.forces);  // refuses --forces mutual
    plan = make_bench_plan(options, options.backend != BackendChoice::Cpu && count_cuda_devices(nullptr) > 0);
  });
  const int repeats = options.repeats > 0 ? options.repeats : kDefaultRepeats;
  std::vector<RanksRow> rows;
  std::string device;
  const ForceMethod sliced = family_of(*options.solver);  // the family's first row: one-sided, a slice each
  for (const int n : plan.particles_of(sliced)) {
    for (const Precision precision : plan.precisions) {
      InitialState initial;
      SimParams params;
      agreed(ranks, [&] {
        if (!root) return;
        const Scene scene = bench_scene(sliced, n);
        params = scene.params;
        initial.fp32 = generate_initial_state(scene);
      });
      ForceMethod family = sliced;
      share_start(ranks, params, family, initial);
      BackendSelection selection;
      agreed(ranks, [&] {
        selection = make_backend(options.backend, n, plan.layouts.front(), precision, plan.cpu_target,
                                 {ranks.local_rank(), ranks.ranks_on_host(), !root});
      });
      Backend& backend = *selection.backend;
      backend.set_tree_settings(plan.tree);
      backend.set_force_method(sliced);
      // Once, from rank 0, as the bench in one process says it: why this runs on the CPU.
      if (root && device.empty() && !selection.notice.empty())
        std::fprintf(stderr, "coalesce: %s\n", selection.notice.c_str());
      device = backend.name();
      for (const Layout layout : plan.layouts) {
        if (root) std::fprintf(stderr, "coalesce: bench over %d ranks: N=%d %s %s\n", ranks.size(), n,
                               std::string(to_string(layout)).c_str(), std::string(to_string(precision)).c_str());
        agreed(ranks, [&] {
          backend.set_layout(layout);
          initial.upload_to(backend);
        });
        rows.push_back({n, layout, precision, time_row(backend, ranks, params, initial, repeats)});
      }
    }
  }
  if (!root) return 0;

  const int k = ranks.size();
  const std::optional<bool> aware = ranks.cuda_aware();
  // With --json -, stdout carries the JSON alone and the table goes to stderr, as in one process.
  std::FILE* table = options.json == "-" ? stderr : stdout;
  std::fprintf(table,
               "coalesce bench over %d ranks, %s; %s, CUDA-aware: %s; all-gather staged through host "
               "memory\n",
               k, device.c_str(), printable(ranks.library()).c_str(),
               aware ? (*aware ? "yes" : "no") : "unknown");
  std::fprintf(table, "%10s %-7s %-5s %12s %12s %11s %14s %10s %s\n", "N", "layout", "prec", "step ms",
               "1 rank ms", "efficiency", "interactions/s", "all-gather", "per rank compute / all-gather ms");
  nlohmann::json json_rows = nlohmann::json::array();
  for (const RanksRow& row : rows) {
    const RankTimes& t = row.times;
    const RowFigures f = figures_of(row, k);
    std::string per_rank;
    for (int r = 0; r < k; ++r)
      per_rank += (r ? ", " : "") + number_text("%.3f", 1e3 * t.compute_s[static_cast<std::size_t>(r)]) +
                  " / " + number_text("%.3f", 1e3 * t.exchange_s[static_cast<std::size_t>(r)]);
    std::fprintf(table, "%10d %-7s %-5s %12.3f %12.3f %10.1f%% %14.3e %9.2f%% %s\n", row.particles,
                 std::string(to_string(row.layout)).c_str(), std::string(to_string(row.precision)).c_str(),
                 1e3 * t.step_s, 1e3 * t.one_rank_s, 100.0 * f.efficiency, f.interactions_per_second,
                 100.0 * f.allgather_share, per_rank.c_str());
    json_rows.push_back(row_json(row, k));
  }
  if (!options.json.empty()) {
    const nlohmann::json doc = {
        {"schema", kBenchRanksSchema},
        {"version", COALESCE_VERSION},
        {"date_utc", utc_now()},
        {"device", device},
        {"mpi",
         {{"ranks", k},
          {"library", ranks.library()},
          {"cuda_aware", aware ? nlohmann::json(*aware) : nlohmann::json(nullptr)},
          {"allgather", "host memory (pinned for a GPU): the device pointer path is not built"}}},
        {"repeats", repeats},
        {"rows", json_rows}};
    write_output(recheck_output_path("--json", options.json, StdoutUse::Allow), {doc.dump(2) + "\n"});
    if (options.json != "-") std::fprintf(stderr, "coalesce: wrote %s\n", printable(options.json).c_str());
  }
  return 0;
}

}  // namespace coalesce
