// coalesce --steps N: simulate with no window, print one stats line, optionally load and save the state,
// write a snapshot series (--snapshot-every) and print the monitors (--monitor-every). Ctrl-C, SIGTERM or
// SIGHUP stops after the step in progress (and its snapshot), saves --save-state and exits 128+signal. Under
// mpirun each rank steps a slice (app/ranks), rank 0 reads, saves and prints, and all stop on one step.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/ranks/rank_agreement.h"
#include "app/ranks/rank_start.h"
#include "app/ranks/rank_stepper.h"
#include "app/services/backend_factory.h"
#include "app/services/force_choice.h"
#include "app/cli/commands.h"
#include "app/services/interrupt.h"
#include "app/services/number_text.h"
#include "app/services/run_monitor.h"
#include "app/services/run_setup.h"
#include "app/services/snapshot_series.h"
#include "app/services/state_output.h"
#include "sim/diagnostics.h"
#include "sim/exit_ledger.h"
#include "sim/errors.h"
#include "sim/force_method.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

std::string energy_text(const RunMonitor& monitor, const MonitorSample& after) {
  const Diagnostics& d = *after.diagnostics;
  const double momentum =
      std::sqrt(d.momentum.x * d.momentum.x + d.momentum.y * d.momentum.y + d.momentum.z * d.momentum.z);
  // Which potential: the exact pair sum (or the attractors'), or the tree's own at its theta.
  const std::string potential =
      d.tree_theta ? number_text("; the tree's potential, theta %g", *d.tree_theta) : std::string();
  return number_text(", energy %.6g", d.total_energy) +
         number_text(" (drift %.2e", monitor.drift(after).value_or(0.0)) + potential + ")" +
         number_text(", |momentum| %.3e", momentum);
}

// Whether the run writes a format that records physical units (GADGET HDF5): --save-state's or the series'.
bool writes_units_format(const Options& options) {
  const auto hdf5 = [](StateFormat format) { return format == StateFormat::GadgetHdf5; };
  if (!options.save_state.empty() && hdf5(output_format("--save-state", options.save_state, options.state_format)))
    return true;
  return options.snapshot_every && hdf5(options.state_format.value_or(StateFormat::Npy));
}

}  // namespace

int run_steps(const Options& options, Ranks& ranks) {
  const bool root = ranks.root();  // only rank 0 reads and writes files and prints
  // Before the set-up (initial state, backend, the first energy): a signal during it still ends the run with
  // its line and the state saved. The ledger is complete before a signal can be handled.
  if (root && !options.save_state.empty()) plan_output(check_output_path("--save-state", options.save_state));
  std::optional<SnapshotPlan> snapshots;
  if (root && options.snapshot_every) {
    snapshots = plan_snapshots(options);
    exit_ledger::plan_note(printable("--snapshot-every " + snapshots->folder.shown) +
                           ": the snapshots its index.json lists stay");
  }
  const StopSignals interrupt;
  Scene scene{};
  InitialState initial;
  agreed(ranks, [&] {
    if (!root) return;
    std::string notice;
    scene = scene_from_options(options, notice);
    // The scene's solver or --solver: --steps cannot switch it, so a --forces there would change nothing.
    const auto& given = options.given;
    const bool forces_given = std::find(given.begin(), given.end(), "--forces") != given.end();
    if (!has_forces_choice(scene.method) && forces_given)
      throw UsageError(forces_without_all_pairs("this --steps run (scene " + excerpt(scene.name) + ")",
                                                "drop --forces, or give --solver all-pairs"));
    if (!notice.empty()) std::fprintf(stderr, "coalesce: %s\n", notice.c_str());
    initial = initial_state_from_options(options, scene);
    if (!initial.notice.empty()) std::fprintf(stderr, "coalesce: %s\n", printable(initial.notice).c_str());
  });
  SimParams params = scene.params;
  ForceMethod family = scene.method;
  share_start(ranks, params, family, initial);
  const int particles = static_cast<int>(initial.size());
  const std::int64_t steps = options.steps.value_or(0);

  BackendSelection selection;
  agreed(ranks, [&] {
    selection = make_backend(options.backend, particles, options.layout, options.precision, options.cpu_target,
                             {ranks.local_rank(), ranks.ranks_on_host(), !root});
    initial.upload_to(*selection.backend);
  });
  if (root && !selection.notice.empty()) std::fprintf(stderr, "coalesce: %s\n", selection.notice.c_str());
  Backend& backend = *selection.backend;
  backend.set_tree_settings(tree_settings_of(options));
  SimClock clock{0, initial.time};  // a loaded file's clock goes on
  ForceChoice forces;
  agreed(ranks, [&] {
    if (!ranks.distributed()) {
      // auto times the schemes only for a run that steps, within a budget, and a stop signal ends it.
      const AutoLimits limits{AutoLimits{}.budget_seconds, [&] { return interrupt.requested(); }, steps > 0};
      forces = choose_forces(backend, family, params, clock.time(params.dt), options.forces, limits);
      return;
    }
    forces = sliced_forces(family, options.forces);
    backend.set_force_method(forces.method);
  });
  RankStepper stepper(backend, ranks);

  // Energy is measured where the state lives, before and after, so the drift compares like with like.
  const bool diagnose = backend.diagnostics_affordable();
  RunMonitor monitor;
  if (root) monitor.start(RunMonitor::measure(backend, params, clock.step, clock.time(params.dt)));
  StateWriting writing;
  writing.format = options.state_format;
  writing.ids = std::move(initial.ids);
  writing.units = initial.units;
  writing.softening = params.softening;
  std::optional<SnapshotSeries> series;
  if (snapshots) series.emplace(*snapshots, series_run(scene.name, backend, params, writing));
  std::optional<MonitorSample> last_sample;  // the latest measurement: the last line reuses one of its step
  // After a step: the monitor's line and the snapshot that fall on it. Every rank gathers (collective); rank
  // 0 measures and writes, and a failure there stops every rank.
  const auto after_step = [&] {
    const std::uint64_t step = clock.step;
    const bool monitor_due =
        options.monitor_every && step % static_cast<std::uint64_t>(*options.monitor_every) == 0;
    const bool snapshot_due =
        options.snapshot_every && step % static_cast<std::uint64_t>(*options.snapshot_every) == 0;
    if (!monitor_due && !snapshot_due) return;
    if (ranks.distributed()) stepper.gather_state();
    agreed(ranks, [&] {
      if (!root) return;
      const MonitorSample& sample =
          last_sample.emplace(RunMonitor::measure(backend, params, step, clock.time(params.dt)));
      if (monitor_due) std::printf("coalesce: %s\n", monitor.line(sample, backend).c_str());
      if (snapshot_due) series->write(backend, writing, sample, monitor);
      std::fflush(stdout);
    });
  };

  const auto start = std::chrono::steady_clock::now();
  std::int64_t done = 0;
  int stop = 0;  // the signal every rank stopped on
  std::string series_stop;  // why the series stopped the run: a state that went NaN or Inf at a snapshot
  if (!ranks.distributed()) {
    while (done < steps && !interrupt.requested()) {
      backend.step(params, clock.time(params.dt));
      ++clock.step;
      ++done;
      try {
        after_step();
      } catch (const NonFiniteState& e) {
        series_stop = e.what();  // no step after it: every later snapshot would be NaN too
        break;
      }
    }
    stop = interrupt.signal();
  } else {
    // The ranks agree after each step whether a signal came to any of them, so all stop after the same one.
    while (done < steps && stop == 0) {
      stop = stepper.step(params, clock.time(params.dt), interrupt.signal());
      ++clock.step;
      ++done;
      after_step();
    }
  }
  backend.synchronize();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stepper.gather_state();
  if (!root) return stop != 0 ? 128 + stop : 0;
  const FinalState final_state = finish_state(backend, options.save_state, writing, clock.time(params.dt));
  const std::string& bad = final_state.non_finite;
  const std::string& saved_to = final_state.written;
  const bool saving = !options.save_state.empty();

  const bool stopped = done < steps;
  std::string line =
      "coalesce: " + backend.name() + ", " + std::string(to_string(options.layout)) + ", " +
      std::string(to_string(backend.precision())) + ", " + std::string(method_info(family).solver_name) +
      (forces.account.empty() ? "" : ", " + forces.account) + ", N=" + std::to_string(particles) +
      (ranks.distributed() ? ", ranks=" + std::to_string(ranks.size()) : "") +
      ", steps=" + std::to_string(done) +
      (stopped ? " of " + std::to_string(steps) + " (interrupted by " + stop_signal_name(stop) + ")" : "") +
      ": " + number_text("%.3f s", seconds);
  if (done > 0 && seconds > 0) line += number_text(", %.1f steps/s", static_cast<double>(done) / seconds);
  if (ranks.distributed()) line += number_text(", all-gather %.3f s on rank 0", stepper.exchange_seconds());
  if (diagnose && bad.empty()) {
    // A monitor or snapshot on the last step measured this state already (a tree potential walk at 16M: 1 s).
    const bool measured = last_sample && last_sample->step == clock.step;
    line += energy_text(
        monitor,
        measured ? *last_sample : RunMonitor::measure(backend, params, clock.step, clock.time(params.dt)));
  } else if (!diagnose) {
    const int limit = backend.max_diagnostics_particles();
    line += ", energy not computed (N > " + std::to_string(limit) + ")";
  }
  if (saving && bad.empty()) line += ", state saved to " + printable(saved_to);
  if (saving && !final_state.rounded.empty()) line += " (" + final_state.rounded + ")";
  if (!initial.unitless_file.empty() && writes_units_format(options))
    line += "; no physical units written: " + printable(initial.unitless_file) +
            " has none, and --scene NAME labels a state with that scene's";
  // A stop signal lets the snapshot in progress and its index finish: the series is whole up to its last
  // file.
  if (series && series_stop.empty())
    line += (stopped ? "; the series is complete up to the stop: " : "; ") + printable(series->summary());
  if (series && !series->rounded().empty()) line += " (" + series->rounded() + ")";
  std::puts(line.c_str());

  if (!bad.empty()) {
    const std::string where =
        saving ? "; saved it to " + saved_to + ", leaving " + options.save_state + " untouched" : "";
    const std::string series_text = series_stop.empty() ? "" : "; " + printable(series_stop);
    throw RuntimeFailure("the state is not finite after " + std::to_string(done) + " steps (particle " + bad +
                         ")" + where + series_text + "; try a smaller --dt or a larger --softening");
  }
  return stop != 0 ? 128 + stop : 0;
}

}  // namespace coalesce
