// The monitors of a run (--monitor-every, the snapshot index): energy, its drift from the run's first
// measurement, momentum, angular momentum and virial ratio, measured where the state lives (the tree's own
// potential on a tree run, so large N stays cheap).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/backend.h"
#include "sim/diagnostics.h"
#include "sim/sim_params.h"

namespace coalesce {

struct MonitorSample {
  std::uint64_t step = 0;
  double time = 0.0;
  std::optional<Diagnostics> diagnostics;  // none: too slow at this N for the force method (unknown)
};

class RunMonitor {
 public:
  // The first measurement, which the drift is taken from.
  void start(const MonitorSample& first) { m_first = first.diagnostics; }
  // Measures the backend's state now, if affordable.
  static MonitorSample measure(Backend& backend, const SimParams& params, std::uint64_t step, double time);

  // |E - E0| / |E0| (|E - E0| when E0 is 0); none when either is unknown.
  std::optional<double> drift(const MonitorSample& sample) const;
  // "step 100 (t 0.2): energy -0.2466 (drift 1.2e-05), |P| 3.1e-08, |L| 0.042, 2K/|W| 0.98"
  std::string line(const MonitorSample& sample, const Backend& backend) const;
  // step, time, energy {total, kinetic, potential, drift, potential_of}, momentum, angular_momentum,
  // virial_ratio: null where unknown (docs/formats.md, "Snapshot series").
  nlohmann::json json(const MonitorSample& sample) const;

 private:
  std::optional<Diagnostics> m_first;
};

}  // namespace coalesce
