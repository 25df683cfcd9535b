// --forces: the all-pairs scheme a run uses. auto times a few alternating steps of each scheme on the run's
// own backend and state, keeps mutual only when it is 5% faster and says so in one line; the state is put back
// exactly afterwards. Being a measurement, auto may choose differently in two runs: name a scheme to compare
// runs bit for bit.
#pragma once

#include <optional>
#include <string>

#include "sim/backend.h"
#include "sim/force_scheme.h"
#include "sim/sim_params.h"

namespace coalesce {

struct ForceChoice {
  ForceScheme scheme = ForceScheme::OneSided;
  // "forces mutual (auto: one-sided ..., mutual ... interactions/s measured at N = ...)", or "forces
  // mutual" when given; empty for attractors.
  std::string account;
};

// `asked`: the scheme given, or none for auto. Only all-pairs has schemes: attractors get one-sided, silently.
ForceChoice choose_forces(Backend& backend, const SimParams& params, double time, std::optional<ForceScheme> asked);

// The line refusing --forces where no all-pairs runs and nothing can switch to it (`run`: "this --steps
// run"), rather than ignore it; `fix` says what to do. The viewer keeps --forces for a switch to all-pairs.
std::string forces_without_all_pairs(const std::string& run, const std::string& fix);

// The scheme when ranks step slices of the bodies (app/ranks): one-sided, since a mutual pair spans two
// ranks' slices; --forces mutual is refused (UsageError) and auto says why it is one-sided.
ForceChoice sliced_forces(const SimParams& params, std::optional<ForceScheme> asked);

}  // namespace coalesce
