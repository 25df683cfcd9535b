// --forces: the row of the run's solver family a run uses. auto measures (sim/auto_choice.h: a few
// alternating steps of each exact row on the run's own backend and state, the state put back exactly) and
// says what it measured in one line. Being a measurement, auto may choose differently in two runs: name a row
// to compare runs bit for bit.
#pragma once

#include <optional>
#include <string>

#include "sim/auto_choice.h"
#include "sim/backend.h"
#include "sim/force_method.h"
#include "sim/sim_params.h"

namespace coalesce {

struct ForceChoice {
  ForceMethod method = ForceMethod::OneSidedAllPairs;
  // "forces mutual (auto: one-sided ..., mutual ... interactions/s measured at N = ...)", or "forces
  // mutual" when given; empty for a family of one row (attractors).
  std::string account;
};

// `family`: the run's solver family; `asked`: the row --forces named, or none for auto. A family of one row
// gets it, silently. The backend's force method is left set to the choice.
// auto measures within `limits` (sim/auto_choice.h), else keeps the first row and says why.
ForceChoice choose_forces(Backend& backend, ForceMethod family, const SimParams& params, double time,
                          std::optional<ForceMethod> asked, const AutoLimits& limits = {});

// The line refusing --forces where no family with a choice runs and nothing can switch to one (`run`: "this
// --steps run"), rather than ignore it; `fix` says what to do. The viewer keeps --forces for a switch.
std::string forces_without_all_pairs(const std::string& run, const std::string& fix);

// The row when ranks step slices of the bodies (app/ranks): the family's first, which slices; a row that
// cannot (mutual: a pair spans two ranks' slices) is refused (UsageError) and auto says why it is the first.
ForceChoice sliced_forces(ForceMethod family, std::optional<ForceMethod> asked);

}  // namespace coalesce
