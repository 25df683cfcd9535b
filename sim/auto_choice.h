// What auto chooses by measuring, in one place: the force method of --forces auto (here) and the pack variant
// the viewer starts with (Backend::preferred_pack_variant, defined in auto_choice.cpp). Each is measured on
// the run's own backend and state and leaves the state bit for bit; being measurements, two runs may choose
// differently: name a row or a variant to compare runs bit for bit.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sim/backend.h"
#include "sim/force_method.h"
#include "sim/sim_params.h"

namespace coalesce {

struct MethodRate {
  ForceMethod method;
  double interactions_per_second;  // of the row's fastest timed step
};

struct MeasuredForceMethod {
  ForceMethod chosen;
  std::vector<MethodRate> rates;  // every candidate timed, in table order; empty when none was
  std::string unmeasured;         // why nothing was timed ("no step runs"), "" when the rows were
};

// What auto may spend: a measurement predicted past `budget_seconds` (from a probe of a few bodies' kick) is
// not made, and `stop` (a stop signal) ends one between steps. `measure` false: nothing is timed (a run of
// no steps).
struct AutoLimits {
  double budget_seconds = 3.0;
  std::function<bool()> stop;
  bool measure = true;
};

// Times a few alternating steps of each exact row of `family` (auto_candidates) and keeps another row than
// the first only when it is 5% faster; the backend's force method is left set to the choice. Timings queued
// before the call (a viewer frame's last step) are dropped: they are not the measurement's.
// Within `limits`: the first row, untimed, where the budget or a stop signal does not allow the rows.
MeasuredForceMethod measure_force_methods(Backend& backend, ForceMethod family, const SimParams& params,
                                          double time, const AutoLimits& limits = {});

}  // namespace coalesce
