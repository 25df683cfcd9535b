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
  if (!options.save_state.empty() &&
      hdf5(output_format("--save-state", options.save_state, options.state_format)))
    return true;
  return options.snapshot_every && hdf5(options.state_format.value_or(StateFormat::Npy));
}

// One --steps run, as the phases run_steps calls in order; each rank runs them all, rank 0 alone reads,
// writes and prints.
class StepsRun {
 public:
  StepsRun(const Options& options, Ranks& ranks);
  void read_start();     // the scene and the initial state, shared with every rank
  void start_backend();  // the backend holding the state, and the force method
  void start_outputs();  // the first measurement, the state's extras, the series
  void step_all();       // the steps, each followed by its monitor line and snapshot
  int finish();          // the final state saved, the run's line; the exit code

 private:
  void after_step();
  std::string run_line(const FinalState& final_state, const std::string& energy) const;

  const Options& m_options;
  Ranks& m_ranks;
  const bool m_root;  // only rank 0 reads and writes files and prints
  std::optional<SnapshotPlan> m_snapshots;
  std::optional<StopSignals> m_interrupt;
  Scene m_scene{};
  InitialState m_initial;
  SimParams m_params{};
  ForceMethod m_family = ForceMethod::OneSidedAllPairs;
  std::int64_t m_steps = 0;
  BackendSelection m_selection;
  SimClock m_clock;
  ForceChoice m_forces;
  std::optional<RankStepper> m_stepper;
  RunMonitor m_monitor;
  StateWriting m_writing;
  std::optional<SnapshotSeries> m_series;
  std::optional<MonitorSample> m_last_sample;  // the latest measurement: the last line reuses one of its step
  std::int64_t m_done = 0;
  int m_stop = 0;             // the signal every rank stopped on
  std::string m_series_stop;  // why the series stopped the run: a state that went NaN or Inf at a snapshot
  double m_seconds = 0.0;
};

StepsRun::StepsRun(const Options& options, Ranks& ranks)
    : m_options(options), m_ranks(ranks), m_root(ranks.root()), m_steps(options.steps.value_or(0)) {
  // Before the set-up (initial state, backend, the first energy): a signal during it still ends the run with
  // its line and the state saved. The ledger is complete before a signal can be handled.
  if (m_root && !options.save_state.empty())
    plan_output(check_output_path("--save-state", options.save_state));
  if (m_root && options.snapshot_every) {
    m_snapshots = plan_snapshots(options);
    exit_ledger::plan_note(printable("--snapshot-every " + m_snapshots->folder.shown) +
                           ": the snapshots its index.json lists stay");
  }
  m_interrupt.emplace();
}

void StepsRun::read_start() {
  agreed(m_ranks, [&] {
    if (!m_root) return;
    std::string notice;
    m_scene = scene_from_options(m_options, notice);
    // The scene's solver or --solver: --steps cannot switch it, so a --forces there would change nothing.
    const auto& given = m_options.given;
    const bool forces_given = std::find(given.begin(), given.end(), "--forces") != given.end();
    if (!has_forces_choice(m_scene.method) && forces_given)
      throw UsageError(forces_without_all_pairs("this --steps run (scene " + excerpt(m_scene.name) + ")",
                                                "drop --forces, or give --solver all-pairs"));
    if (!notice.empty()) std::fprintf(stderr, "coalesce: %s\n", notice.c_str());
    m_initial = initial_state_from_options(m_options, m_scene);
    if (!m_initial.notice.empty())
      std::fprintf(stderr, "coalesce: %s\n", printable(m_initial.notice).c_str());
  });
  m_params = m_scene.params;
  m_family = m_scene.method;
  share_start(m_ranks, m_params, m_family, m_initial);
  m_clock = SimClock{0, m_initial.time};  // a loaded file's clock goes on
}

void StepsRun::start_backend() {
  const int particles = static_cast<int>(m_initial.size());
  agreed(m_ranks, [&] {
    m_selection =
        make_backend(m_options.backend, particles, m_options.layout, m_options.precision,
                     m_options.cpu_target, {m_ranks.local_rank(), m_ranks.ranks_on_host(), !m_root});
    m_initial.upload_to(*m_selection.backend);
  });
  if (m_root && !m_selection.notice.empty())
    std::fprintf(stderr, "coalesce: %s\n", m_selection.notice.c_str());
  Backend& backend = *m_selection.backend;
  backend.set_tree_settings(tree_settings_of(m_options));
  agreed(m_ranks, [&] {
    if (!m_ranks.distributed()) {
      // auto times the schemes only for a run that steps, within a budget, and a stop signal ends it.
      const AutoLimits limits{AutoLimits{}.budget_seconds, [&] { return m_interrupt->requested(); },
                              m_steps > 0};
      m_forces =
          choose_forces(backend, m_family, m_params, m_clock.time(m_params.dt), m_options.forces, limits);
      return;
    }
    m_forces = sliced_forces(m_family, m_options.forces);
    backend.set_force_method(m_forces.method);
  });
  m_stepper.emplace(backend, m_ranks);
}

void StepsRun::start_outputs() {
  Backend& backend = *m_selection.backend;
  // Energy is measured where the state lives, before and after, so the drift compares like with like.
  if (m_root)
    m_monitor.start(RunMonitor::measure(backend, m_params, m_clock.step, m_clock.time(m_params.dt)));
  m_writing.format = m_options.state_format;
  m_writing.ids = std::move(m_initial.ids);
  m_writing.units = m_initial.units;
  m_writing.softening = m_params.softening;
  if (m_snapshots) m_series.emplace(*m_snapshots, series_run(m_scene.name, backend, m_params, m_writing));
}

// After a step: the monitor's line and the snapshot that fall on it. Every rank gathers (collective); rank 0
// measures and writes, and a failure there stops every rank.
void StepsRun::after_step() {
  const std::uint64_t step = m_clock.step;
  const bool monitor_due =
      m_options.monitor_every && step % static_cast<std::uint64_t>(*m_options.monitor_every) == 0;
  const bool snapshot_due =
      m_options.snapshot_every && step % static_cast<std::uint64_t>(*m_options.snapshot_every) == 0;
  if (!monitor_due && !snapshot_due) return;
  if (m_ranks.distributed()) m_stepper->gather_state();
  agreed(m_ranks, [&] {
    if (!m_root) return;
    Backend& backend = *m_selection.backend;
    const MonitorSample& sample =
        m_last_sample.emplace(RunMonitor::measure(backend, m_params, step, m_clock.time(m_params.dt)));
    if (monitor_due) std::printf("coalesce: %s\n", m_monitor.line(sample, backend).c_str());
    if (snapshot_due) m_series->write(backend, m_writing, sample, m_monitor);
    std::fflush(stdout);
  });
}

void StepsRun::step_all() {
  Backend& backend = *m_selection.backend;
  const auto start = std::chrono::steady_clock::now();
  if (!m_ranks.distributed()) {
    while (m_done < m_steps && !m_interrupt->requested()) {
      backend.step(m_params, m_clock.time(m_params.dt));
      ++m_clock.step;
      ++m_done;
      try {
        after_step();
      } catch (const NonFiniteState& e) {
        m_series_stop = e.what();  // no step after it: every later snapshot would be NaN too
        break;
      }
    }
    m_stop = m_interrupt->signal();
  } else {
    // The ranks agree after each step whether a signal came to any of them, so all stop after the same one.
    while (m_done < m_steps && m_stop == 0) {
      m_stop = m_stepper->step(m_params, m_clock.time(m_params.dt), m_interrupt->signal());
      ++m_clock.step;
      ++m_done;
      after_step();
    }
  }
  backend.synchronize();
  m_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  m_stepper->gather_state();
}

// The run's line: what ran, how fast, the energy, what was saved and the series.
std::string StepsRun::run_line(const FinalState& final_state, const std::string& energy) const {
  const Backend& backend = *m_selection.backend;
  const bool stopped = m_done < m_steps;
  std::string line =
      "coalesce: " + backend.name() + ", " + std::string(to_string(m_options.layout)) + ", " +
      std::string(to_string(backend.precision())) + ", " + std::string(method_info(m_family).solver_name) +
      (m_forces.account.empty() ? "" : ", " + m_forces.account) +
      ", N=" + std::to_string(backend.particle_count()) +
      (m_ranks.distributed() ? ", ranks=" + std::to_string(m_ranks.size()) : "") +
      ", steps=" + std::to_string(m_done) +
      (stopped ? " of " + std::to_string(m_steps) + " (interrupted by " + stop_signal_name(m_stop) + ")"
               : "") +
      ": " + number_text("%.3f s", m_seconds);
  if (m_done > 0 && m_seconds > 0)
    line += number_text(", %.1f steps/s", static_cast<double>(m_done) / m_seconds);
  if (m_ranks.distributed())
    line += number_text(", all-gather %.3f s on rank 0", m_stepper->exchange_seconds());
  line += energy;
  const bool saving = !m_options.save_state.empty();
  if (saving && final_state.non_finite.empty()) line += ", state saved to " + printable(final_state.written);
  if (saving && !final_state.rounded.empty()) line += " (" + final_state.rounded + ")";
  if (!m_initial.unitless_file.empty() && writes_units_format(m_options))
    line += "; no physical units written: " + printable(m_initial.unitless_file) +
            " has none, and --scene NAME labels a state with that scene's";
  // A stop signal lets the snapshot in progress and its index finish: the series is whole up to its last
  // file.
  if (m_series && m_series_stop.empty())
    line += (stopped ? "; the series is complete up to the stop: " : "; ") + printable(m_series->summary());
  if (m_series && !m_series->rounded().empty()) line += " (" + m_series->rounded() + ")";
  return line;
}

int StepsRun::finish() {
  const int code = m_stop != 0 ? 128 + m_stop : 0;
  if (!m_root) return code;
  Backend& backend = *m_selection.backend;
  const FinalState final_state =
      finish_state(backend, m_options.save_state, m_writing, m_clock.time(m_params.dt));
  const std::string& bad = final_state.non_finite;
  std::string energy;
  if (backend.diagnostics_affordable() && bad.empty()) {
    // A monitor or snapshot on the last step measured this state already (a tree potential walk at 16M: 1 s).
    const bool measured = m_last_sample && m_last_sample->step == m_clock.step;
    energy = energy_text(m_monitor, measured ? *m_last_sample
                                             : RunMonitor::measure(backend, m_params, m_clock.step,
                                                                   m_clock.time(m_params.dt)));
  } else if (!backend.diagnostics_affordable()) {
    energy = ", energy not computed (N > " + std::to_string(backend.max_diagnostics_particles()) + ")";
  }
  std::puts(run_line(final_state, energy).c_str());
  if (!bad.empty()) {
    const std::string where =
        m_options.save_state.empty()
            ? ""
            : "; saved it to " + final_state.written + ", leaving " + m_options.save_state + " untouched";
    const std::string series_text = m_series_stop.empty() ? "" : "; " + printable(m_series_stop);
    throw RuntimeFailure("the state is not finite after " + std::to_string(m_done) + " steps (particle " +
                         bad + ")" + where + series_text + "; try a smaller --dt or a larger --softening");
  }
  return code;
}

}  // namespace

// The run in named phases (StepsRun above).
int run_steps(const Options& options, Ranks& ranks) {
  StepsRun run(options, ranks);
  run.read_start();
  run.start_backend();
  run.start_outputs();
  run.step_all();
  return run.finish();
}

}  // namespace coalesce
