// What a run says when it does less than asked, and the exit codes --help documents (issue 19 §3), through
// the real executable.
#include <gtest/gtest.h>

#include <string>

#include "tests/app/run_process.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

TEST(CliNotice, HelpListsEveryExitCode) {
  const ProcessResult r = run_coalesce({"--help"}, 30);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* code : {"0 ok", "1 runtime failure", "2 usage error", "130 Ctrl-C", "143 SIGTERM", "129 SIGHUP"})
    EXPECT_NE(r.out.find(code), std::string::npos) << code << " missing from:\n" << r.out;
}

// --lab-tab asks the lab to run; without a CUDA device it cannot, and one line says so (the run goes on).
TEST(CliNotice, LabTabWithoutADeviceSaysItDidNotRun) {
  if (cuda_available()) GTEST_SKIP() << "skipped: a CUDA device is present, so the lab runs";
  if (!viewer_built()) GTEST_SKIP() << "skipped: this build has no viewer";
  TestRng rng;
  TempDir dir;
  const char* experiments[] = {"transpose", "banks", "strided"};
  const std::string name = experiments[rng.uniform_int(0, 2)];
  const ProcessResult r = run_coalesce({"--headless", "--frames", std::to_string(rng.uniform_int(1, 3)),
                                        "--particles", std::to_string(rng.uniform_int(16, 256)), "--lab-tab", name,
                                        "--screenshot", dir.file("shot.png")},
                                       120);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  int notices = 0;
  for (const std::string& line : r.err_lines())
    if (line.rfind("coalesce: --lab-tab " + name + ": not run: the lab needs a CUDA device", 0) == 0) ++notices;
  EXPECT_EQ(notices, 1) << r.err;
}

}  // namespace
}  // namespace coalesce::testing
