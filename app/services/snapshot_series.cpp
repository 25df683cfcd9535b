// SnapshotSeries (see snapshot_series.h).
#include "app/services/snapshot_series.h"

#include <cstdio>
#include <utility>

#include "app/services/report_schemas.h"
#include "sim/errors.h"
#include "sim/force_method.h"
#include "sim/output_file.h"
#include "sim/state_file.h"
#include "sim/path_parts.h"

namespace coalesce {

SnapshotPlan plan_snapshots(const Options& options) {
  SnapshotPlan plan;
  plan.folder = check_new_folder("--snapshot-every", options.snapshot_dir, "out/snaps");
  plan.every = options.snapshot_every.value_or(0);
  plan.format = options.state_format.value_or(StateFormat::Npy);
  return plan;
}

std::string snapshot_name(const SnapshotPlan& plan, std::uint64_t step) {
  char name[48];
  std::snprintf(name, sizeof name, "snapshot-%08llu", static_cast<unsigned long long>(step));
  return name + std::string(format_extension(plan.format));
}

nlohmann::json series_run(const std::string& scene, const Backend& backend, const SimParams& params,
                          const StateWriting& writing) {
  nlohmann::json units = nullptr;
  if (writing.units)
    units = {{"length", writing.units->length_text},
             {"mass", writing.units->mass_text},
             {"length_in_cm", writing.units->length_in_cm},
             {"mass_in_g", writing.units->mass_in_g},
             {"velocity_in_cm_per_s", writing.units->velocity_in_cm_per_s()},
             {"time_in_s", writing.units->time_in_s()}};
  return {{"scene", scene},
          {"backend", backend.name()},
          {"precision", std::string(to_string(backend.precision()))},
          {"solver", std::string(method_info(backend.force_method()).solver_name)},
          {"particles", backend.particle_count()},
          {"dt", params.dt},
          {"softening", params.softening},
          {"units", units}};
}

SnapshotSeries::SnapshotSeries(SnapshotPlan plan, nlohmann::json run)
    : m_plan(std::move(plan)), m_run(std::move(run)) {}

void SnapshotSeries::write(Backend& backend, const StateWriting& writing, const MonitorSample& sample,
                           const RunMonitor& monitor) {
  if (!follows(sample.step))  // never a file of this series written again
    throw RuntimeFailure("--snapshot-every: step " + std::to_string(sample.step) +
                         " is not after the last snapshot's, " + std::to_string(m_last_step));
  const NewFolder& folder = m_plan.folder;
  if (!m_folder) {  // checked new or empty before the run; created or checked again now, then held
    create_new_folder(folder);
    m_folder = std::make_unique<HeldFolder>(folder.flag, folder.directory, folder.identity);
  }
  const std::string name = snapshot_name(m_plan, sample.step);
  const OutputFile names{folder.flag, folder.directory + "/" + name, folder.directory + "/" + name, false};
  nlohmann::json files = nlohmann::json::array();
  try {
    m_rounded = write_backend_state(backend, names, m_plan.format, writing, sample.time,
                                    [&](const std::vector<EncodedFile>& encoded) {
                                      std::vector<NamedBytes> named;
                                      for (const EncodedFile& file : encoded)
                                        named.push_back({name + file.suffix, file.pieces()});
                                      m_folder->write_new(named);
                                      for (const NamedBytes& file : named) files.push_back(file.name);
                                    });
  } catch (const NonFiniteState& e) {
    throw NonFiniteState(folder.flag + " " + folder.shown + ": the state is not finite at step " +
                             std::to_string(sample.step) + " (particle " + e.particle() +
                             "), so the series stops before it: " + last_written(),
                         e.particle());
  }
  nlohmann::json row = monitor.json(sample);
  row["file"] = name;
  row["files"] = files;
  m_rows.push_back(std::move(row));
  try {
    write_index();
  } catch (const RuntimeFailure& e) {
    m_rows.pop_back();  // the index on disk lists the snapshots before this one: so does the series
    bool removed = true;
    for (const std::string file : files) removed = m_folder->remove_own(file) && removed;
    throw RuntimeFailure(
        std::string(e.what()) + "; " +
        (removed ? "removed " + name + ", which it could not list" : name + " is there but not listed") +
        "; " + last_written());
  }
  m_last_step = sample.step;
}

void SnapshotSeries::write_index() {
  nlohmann::json index = {
      {"schema", std::string(kSnapshotsSchema)},
      {"format", std::string(format_name(m_plan.format))},
      {"every", m_plan.every},
      {"run", m_run},
      {"rounded", m_rounded.empty() ? nlohmann::json(nullptr) : nlohmann::json(m_rounded)},
      {"snapshots", m_rows}};
  const std::string text = index.dump(2) + "\n";
  m_folder->replace_own({"index.json", {text}});
}

std::string SnapshotSeries::last_written() const {
  if (m_rows.empty()) return "no snapshot was written";
  return "the series is complete up to step " + std::to_string(m_last_step) + "'s snapshot (" + summary() +
         ")";
}

std::string SnapshotSeries::summary() const {
  return std::to_string(m_rows.size()) + (m_rows.size() == 1 ? " snapshot in " : " snapshots in ") +
         m_plan.folder.directory + "/ (index " + m_plan.folder.directory + "/index.json)";
}

}  // namespace coalesce
