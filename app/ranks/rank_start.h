// The start of a run on every rank: rank 0 reads the scene and state files (the only rank that reads or
// writes files) and sends what it made to the others.
#pragma once

#include "app/ranks/ranks.h"
#include "app/services/run_setup.h"
#include "sim/force_method.h"
#include "sim/sim_params.h"

namespace coalesce {

// Rank 0's parameters, solver family and initial state on every rank. Collective; one rank: nothing to do.
void share_start(Ranks& ranks, SimParams& params, ForceMethod& family, InitialState& initial);

}  // namespace coalesce
