// ViewerSnapshots (see viewer_snapshots.h).
#include "app/viewer/viewer_snapshots.h"

#include <cstdio>
#include <exception>

#include "app/viewer/viewer_simulation.h"
#include "sim/errors.h"
#include "sim/printable.h"

namespace coalesce {

namespace {

constexpr std::int64_t kDefaultEvery = 100;  // key N without --snapshot-every
constexpr int kDefaultFolderTries = 1000;    // coalesce-snapshots, coalesce-snapshots-2, ...

// The first of coalesce-snapshots, coalesce-snapshots-2, ... that is new or empty.
NewFolder default_folder() {
  for (int k = 1; k <= kDefaultFolderTries; ++k) {
    const std::string name = k == 1 ? "coalesce-snapshots" : "coalesce-snapshots-" + std::to_string(k);
    try {
      return check_new_folder("snapshots (N)", name, "out/snaps");
    } catch (const UsageError&) {
      // taken: try the next name
    }
  }
  throw UsageError("snapshots (N): coalesce-snapshots through coalesce-snapshots-" +
                   std::to_string(kDefaultFolderTries) +
                   " are all taken; start the viewer with --snapshot-every K DIR");
}

// The first step after `step` that is a multiple of `every`: files are named by their step, as --steps names
// them, so a series started at any step lands on the same steps.
std::uint64_t next_multiple(std::uint64_t step, std::int64_t every) {
  const auto k = static_cast<std::uint64_t>(every);
  return (step / k + 1) * k;
}

}  // namespace

ViewerSnapshots::ViewerSnapshots(const Options& options) : m_options(options) {}

void ViewerSnapshots::toggle(ViewerSimulation& simulation) {
  if (m_series) {
    m_status.line = finish();
    return;
  }
  start(simulation);
}

void ViewerSnapshots::start(ViewerSimulation& simulation) {
  try {
    SnapshotPlan plan;
    // --snapshot-every's folder serves the first series; a later one would find it full.
    const bool flag_folder = m_options.snapshot_every && !m_flag_folder_used;
    plan.folder = flag_folder ? check_new_folder("--snapshot-every", m_options.snapshot_dir, "out/snaps")
                              : default_folder();
    m_flag_folder_used = m_flag_folder_used || flag_folder;
    plan.every = m_options.snapshot_every.value_or(kDefaultEvery);
    plan.format = m_options.state_format.value_or(StateFormat::Npy);
    nlohmann::json run =
        series_run(simulation.scene().name, simulation.backend(), simulation.params(), simulation.writing());
    run["viewer"] = true;
    m_series.emplace(plan, run);
    m_generation = simulation.generation();
    m_monitor = RunMonitor{};  // the drift is measured from the state the series starts at
    m_monitor.start(RunMonitor::measure(simulation.backend(), simulation.params(), simulation.step_count(),
                                        simulation.time()));
    m_status = {true, "every " + std::to_string(plan.every) + " steps into " + plan.folder.directory +
                          "/: the first at step " +
                          std::to_string(next_multiple(simulation.step_count(), plan.every))};
  } catch (const std::exception& e) {
    m_series.reset();
    m_status = {false, std::string("snapshots not started: ") + e.what()};
  }
}

void ViewerSnapshots::write(ViewerSimulation& simulation) {
  const MonitorSample sample = RunMonitor::measure(simulation.backend(), simulation.params(),
                                                   simulation.step_count(), simulation.time());
  m_series->write(simulation.backend(), simulation.writing(), sample, m_monitor);
  m_status.line = "every " + std::to_string(m_series->plan().every) + " steps: " + m_series->summary();
}

void ViewerSnapshots::after_step(ViewerSimulation& simulation) {
  if (!m_series) return;
  if (simulation.generation() != m_generation) {  // a new N or scene: a different run from here on
    m_status.line = finish() + "; ended: the state was rebuilt (new N or scene)";
    return;
  }
  if (!m_series->follows(simulation.step_count())) {  // reset to step 0: a new run from here on
    m_status.line = finish() + "; ended: the state was reset";
    return;
  }
  if (!m_series->due(simulation.step_count())) return;
  try {
    write(simulation);
  } catch (const std::exception& e) {
    const std::string done = m_series->summary();
    m_series.reset();
    m_status = {false, std::string("snapshots stopped: ") + e.what() + " (kept " + done + ")"};
    std::fprintf(stderr, "coalesce: %s\n", printable(m_status.line).c_str());
  }
}

std::string ViewerSnapshots::finish() {
  if (!m_series) return {};
  const std::string line = "snapshots: " + m_series->summary();
  m_series.reset();
  m_status = {false, line};
  return line;
}

}  // namespace coalesce
