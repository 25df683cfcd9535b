// Runs the real coalesce executable with arguments (tests/support/process.h does the work), so the CLI
// tests check what a user sees.
#pragma once

#include <gtest/gtest.h>

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

// A refusal or failure as the user sees it: exit `code` and one line on stderr, "coalesce: ...", holding each
// of `needles`.
inline void expect_one_line(const ProcessResult& r, int code, const std::vector<std::string>& needles) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("coalesce: ", 0), 0u) << lines[0];
  for (const std::string& needle : needles)
    EXPECT_NE(lines[0].find(needle), std::string::npos) << needle << "\n" << lines[0];
}

// Whether the executable has the viewer: its --version lists the features built in ("(cuda, viewer, mpi)");
// the sanitizer build of CI has none, and a viewer run there is a usage error.
inline bool viewer_built() {
  const std::string out = run_coalesce({"--version"}, 30).out;
  const std::string first_line = out.substr(0, out.find('\n'));
  return first_line.find("viewer") != std::string::npos;
}

}  // namespace coalesce::testing
