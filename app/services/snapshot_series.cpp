// SnapshotSeries (see snapshot_series.h).
#include "app/services/snapshot_series.h"

#include <cstdio>
#include <utility>

#include "app/services/report_schemas.h"
#include "sim/errors.h"
#include "sim/force_method.h"
#include "sim/output_file.h"
#include "sim/path_parts.h"

namespace coalesce {

SnapshotPlan plan_snapshots(const Options& options) {
  SnapshotPlan plan;
  plan.folder = check_new_folder("--snapshot-every", options.snapshot_dir, "out/snaps");
  plan.every = options.snapshot_every.value_or(0);
  plan.format = options.state_format.value_or(StateFormat::Npy);
  return plan;
}

std::string snapshot_path(const SnapshotPlan& plan, std::uint64_t step) {
  char name[48];
  std::snprintf(name, sizeof name, "snapshot-%08llu", static_cast<unsigned long long>(step));
  return plan.folder.directory + "/" + name + std::string(format_extension(plan.format));
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
  if (m_rows.empty()) create_new_folder(m_plan.folder);  // checked new or empty before the run; again now
  const std::string path = snapshot_path(m_plan, sample.step);
  const OutputFile file = recheck_output_path("--snapshot-every", path);
  m_rounded = save_backend_state(backend, file, m_plan.format, writing, sample.time);
  nlohmann::json row = monitor.json(sample);
  nlohmann::json files = nlohmann::json::array({name_of(path)});
  for (const std::string& companion : companion_paths(path, m_plan.format))
    files.push_back(name_of(companion));
  row["file"] = name_of(path);
  row["files"] = files;
  m_rows.push_back(std::move(row));
  m_last_step = sample.step;
  write_index();
}

void SnapshotSeries::write_index() const {
  nlohmann::json index = {
      {"schema", std::string(kSnapshotsSchema)},
      {"format", std::string(format_name(m_plan.format))},
      {"every", m_plan.every},
      {"run", m_run},
      {"rounded", m_rounded.empty() ? nlohmann::json(nullptr) : nlohmann::json(m_rounded)},
      {"snapshots", m_rows}};
  const std::string text = index.dump(2) + "\n";
  write_output(recheck_output_path("--snapshot-every's index", m_plan.folder.directory + "/index.json"),
               {text});
}

std::string SnapshotSeries::summary() const {
  return std::to_string(m_rows.size()) + (m_rows.size() == 1 ? " snapshot in " : " snapshots in ") +
         m_plan.folder.directory + "/ (index " + m_plan.folder.directory + "/index.json)";
}

}  // namespace coalesce
