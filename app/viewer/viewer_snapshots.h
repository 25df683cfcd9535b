// The viewer's snapshot series: --snapshot-every K DIR starts one with the run; key N and the panel's button
// start one (into DIR, else the first new or empty coalesce-snapshots[-k] folder) or stop the one running.
// Each snapshot is the state after the step it names, at every K-th step, written as --steps writes them
// (snapshot_series.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "app/services/options.h"
#include "app/services/run_monitor.h"
#include "app/services/snapshot_series.h"

namespace coalesce {

class ViewerSimulation;

// What the panel says about the series.
struct SnapshotStatus {
  bool active = false;
  std::string line;  // "every 100 steps into out/snaps/: 3 written", or the failure that stopped the last one
};

class ViewerSnapshots {
 public:
  explicit ViewerSnapshots(const Options& options);

  // Starts a series (its first snapshot at the next step that is a multiple of K, as --steps names them;
  // the drift is measured from the state now) or stops the one running. A folder that cannot be used stops
  // nothing else: the status says why.
  void toggle(ViewerSimulation& simulation);
  // After a step: the snapshot due at this step, if a series runs. A failed write ends the series and says
  // so; the files and index written before it stay.
  void after_step(ViewerSimulation& simulation);
  // The run's end: the series stops; its files and index are complete. Returns the line to print, or "".
  std::string finish();

  const SnapshotStatus& status() const { return m_status; }

 private:
  void start(ViewerSimulation& simulation);
  void write(ViewerSimulation& simulation);

  Options m_options;  // --snapshot-every's K and DIR, --format
  bool m_flag_folder_used = false;
  std::optional<SnapshotSeries> m_series;
  RunMonitor m_monitor;
  SnapshotStatus m_status;
  std::uint64_t m_generation = 0;  // the simulation's state the series follows (a new N or scene ends it)
};

}  // namespace coalesce
