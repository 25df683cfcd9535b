// A tree run's --steps line carries the tree's own energy past the exact pair sum's limit (issue 32), and
// says which potential it is; an all-pairs run past that limit still says it did not compute one.
#include <gtest/gtest.h>

#include <string>

#include "tests/app/run_process.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

TEST(CliTreeEnergy, TreeRunPastTheExactLimitPrintsTheTreesEnergy) {
  TestRng rng;
  const int n = rng.uniform_int(20001, 30000);  // past the CPU's exact limit, 20,000
  const std::string theta = rng.uniform_int(0, 1) ? "0.25" : "0.5";
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--scene", rng.uniform_int(0, 1) ? "plummer" : "galaxies",
                    "--particles", std::to_string(n), "--solver", "tree", "--theta", theta, "--steps", "2"},
                   120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(", energy -"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("; the tree's potential, theta " + theta + ")"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("energy not computed"), std::string::npos) << r.out;
}

TEST(CliTreeEnergy, AllPairsRunPastTheExactLimitStillSaysSo) {
  TestRng rng;
  const int n = rng.uniform_int(20001, 22000);
  const ProcessResult r = run_coalesce(
      {"--backend", "cpu", "--scene", "plummer", "--particles", std::to_string(n), "--steps", "0"}, 120);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("energy not computed (N > 20000)"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace coalesce::testing
