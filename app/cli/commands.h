// The program's commands; each returns the process exit code (0 ok, 1 runtime failure, 2 usage error).
#pragma once

#include "app/services/options.h"

namespace coalesce {

int run_steps(const Options& options);   // --steps N: simulate with no window, optional save/load state
int run_viewer(const Options& options);  // the window, or --headless frames and a screenshot
int run_bench(const Options& options);   // coalesce bench
int run_lab(const Options& options);     // coalesce lab

}  // namespace coalesce
