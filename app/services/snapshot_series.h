// --snapshot-every K DIR: the state every K steps into a new or empty folder, as DIR/snapshot-00000100.npy
// (or .tipsy, .hdf5: --format), each written atomically, and DIR/index.json (schema coalesce-snapshots/1,
// docs/formats.md) rewritten atomically after each file, listing every snapshot with its monitors.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/services/new_folder.h"
#include "app/services/options.h"
#include "app/services/run_monitor.h"
#include "app/services/state_output.h"
#include "sim/backend.h"
#include "sim/held_folder.h"

namespace coalesce {

struct SnapshotPlan {
  NewFolder folder;
  std::int64_t every = 0;
  StateFormat format = StateFormat::Npy;
};

// The series options asks for, checked (the folder new or empty; UsageError otherwise).
SnapshotPlan plan_snapshots(const Options& options);

// The snapshot's name at `step`: snapshot-00000100.npy.
std::string snapshot_name(const SnapshotPlan& plan, std::uint64_t step);

// The index's description of a run: scene, backend, precision, solver, N, dt, softening, units (null when
// unknown).
nlohmann::json series_run(const std::string& scene, const Backend& backend, const SimParams& params,
                          const StateWriting& writing);

class SnapshotSeries {
 public:
  // `run` describes the run in the index (scene, precision, N, dt, softening, units).
  SnapshotSeries(SnapshotPlan plan, nlohmann::json run);

  bool due(std::uint64_t step) const { return step % static_cast<std::uint64_t>(m_plan.every) == 0; }
  // Writes the backend's state at `sample.step` under a new name in the folder held since the first
  // snapshot, then the index with its row. Throws RuntimeFailure naming the file (NonFiniteState for a
  // state with a NaN or Inf, writing nothing); the files already written and the index listing them stay,
  // and a snapshot the index could not list is removed.
  void write(Backend& backend, const StateWriting& writing, const MonitorSample& sample,
             const RunMonitor& monitor);

  std::size_t written() const { return m_rows.size(); }
  // Whether a snapshot at `step` would follow the series (a reset clock would name an earlier file again).
  bool follows(std::uint64_t step) const { return m_rows.empty() || step > m_last_step; }
  const SnapshotPlan& plan() const { return m_plan; }
  // What the format could not hold ("the fp64 state was rounded to float32, ..."), "" when nothing.
  const std::string& rounded() const { return m_rounded; }
  // "3 snapshots in out/snaps/ (index out/snaps/index.json)"
  std::string summary() const;

 private:
  void write_index();
  std::string last_written() const;  // "its last snapshot is step 100's" or "no snapshot was written"

  SnapshotPlan m_plan;
  std::unique_ptr<HeldFolder> m_folder;  // opened at the first snapshot
  nlohmann::json m_run;
  std::vector<nlohmann::json> m_rows;
  std::string m_rounded;  // what the format could not hold, said once in the index
  std::uint64_t m_last_step = 0;
};

}  // namespace coalesce
