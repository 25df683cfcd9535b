// What auto chooses by measuring, in one place: the force method of --forces auto (here) and the pack variant
// the viewer starts with (Backend::preferred_pack_variant, defined in auto_choice.cpp). Each is measured on
// the run's own backend and state and leaves the state bit for bit; being measurements, two runs may choose
// differently: name a row or a variant to compare runs bit for bit.
#pragma once

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
  std::vector<MethodRate> rates;  // every candidate, in table order
};

// Times a few alternating steps of each exact row of `family` (auto_candidates) and keeps another row than
// the first only when it is 5% faster; the backend's force method is left set to the choice. Timings queued
// before the call (a viewer frame's last step) are dropped: they are not the measurement's.
MeasuredForceMethod measure_force_methods(Backend& backend, ForceMethod family, const SimParams& params,
                                          double time);

}  // namespace coalesce
