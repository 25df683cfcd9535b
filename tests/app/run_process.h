// Runs the real coalesce executable with arguments (tests/support/process.h does the work), so the CLI
// tests check what a user sees.
#pragma once

#include <string>
#include <vector>

#include "tests/support/process.h"

namespace coalesce::testing {

// Runs coalesce with `arguments`; kills it after `timeout_seconds`.
inline ProcessResult run_coalesce(const std::vector<std::string>& arguments, int timeout_seconds = 120,
                                  const ChildSetup& setup = {}) {
  std::vector<std::string> argv{coalesce_executable()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process(argv, {}, {}, timeout_seconds, setup);
}

}  // namespace coalesce::testing
