// The program's commands; each returns the process exit code (0 ok, 1 runtime failure, 2 usage error).
#pragma once

#include "app/ranks/ranks.h"
#include "app/services/options.h"

namespace coalesce {

// --steps N: simulate with no window, optional save/load state; under mpirun, each rank a slice.
int run_steps(const Options& options, Ranks& ranks);
int run_viewer(const Options& options);  // the window, or --headless frames and a screenshot
// coalesce bench; under mpirun with several ranks, the all-pairs scaling bench (app/cli/ranks_command.cpp).
int run_bench(const Options& options, Ranks& ranks);
int run_bench(const Options& options);  // in one process
int run_lab(const Options& options);     // coalesce lab

// Under mpirun: every rank was started with rank 0's command line (the ranks would otherwise step different
// runs), else rank 0 says so. Collective.
void check_one_command_line(Ranks& ranks, int argc, char** argv);

}  // namespace coalesce
