// The tree's last kick as bench's rows and the screenshot JSON both write it (docs/bench-json.md,
// docs/viewer.md): its settings, pulls per target and stage split. Each report adds its own error block.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/force_error.h"

namespace coalesce {

inline nlohmann::json tree_report_json(const TreeReport& r) {
  const double targets = r.targets > 0 ? r.targets : 1;
  nlohmann::json stages = nlohmann::json::object();
  for (const auto& [name, ms] : r.stages_ms) stages[std::string(name)] = ms;
  return {{"theta", r.settings.theta},
          {"leaf_size", r.settings.leaf_size},
          {"group_size", r.settings.group_size},
          {"particle_particle_per_target", r.counts.particle_particle / targets},
          {"particle_node_per_target", r.counts.particle_node / targets},
          {"stages_ms", stages}};
}

}  // namespace coalesce
