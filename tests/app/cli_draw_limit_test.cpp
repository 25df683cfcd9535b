// --draw-limit: the default, 0 (draw all), random good values, and bad values rejected with one line that
// names the flag, both through parse_arguments and through the real executable (exit 2).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "sim/errors.h"
#include "tests/app/run_process.h"
#include "sim/limits.h"
#include "tests/app/usage_error.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

// Unset by default: the viewer then draws all on the splat path and kDefaultDrawLimit (4M) with points.
TEST(CliDrawLimit, UnsetByDefaultAndZeroDrawsAll) {
  EXPECT_FALSE(parse_arguments({}).draw_limit.has_value());
  EXPECT_EQ(kDefaultDrawLimit, 4194304);
  EXPECT_EQ(parse_arguments({"--draw-limit", "0"}).draw_limit, 0);
  EXPECT_EQ(parse_arguments({"--draw-limit=0"}).draw_limit, 0);
}

TEST(CliDrawLimit, RandomGoodValuesRoundTrip) {
  TestRng rng;
  for (int trial = 0; trial < 100; ++trial) {
    const int limit = rng.uniform_int(0, kMaxParticles);
    const bool equals_form = rng.uniform_int(0, 1) == 1;
    const Args args = equals_form ? Args{"--draw-limit=" + std::to_string(limit)}
                                  : Args{"--draw-limit", std::to_string(limit)};
    ASSERT_EQ(parse_arguments(args).draw_limit, limit)
        << (equals_form ? "--draw-limit=" : "--draw-limit ") << limit;
  }
}

TEST(CliDrawLimit, BadValuesNameTheFlag) {
  for (const char* bad : {"-1", "abc", "1.5", "", "4M", " 5", "2147483648", "99999999999999999999"}) {
    const std::string message = usage_error({"--draw-limit", bad});
    EXPECT_NE(message.find("--draw-limit"), std::string::npos) << "'" << bad << "': " << message;
    EXPECT_NE(message.find("try --draw-limit"), std::string::npos) << "'" << bad << "': " << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_NE(usage_error({"bench", "--draw-limit", "5"}).find("not an option of coalesce bench"),
            std::string::npos);
}

TEST(CliDrawLimit, ExecutableRejectsANegativeLimitWithOneLine) {
  TestRng rng;
  const std::string bad = std::to_string(-rng.uniform_int(1, 1 << 20));
  const ProcessResult r = run_coalesce({"--backend", "cpu", "--steps", "1", "--draw-limit", bad});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_NE(lines[0].find("--draw-limit"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find(bad), std::string::npos) << lines[0];
}

TEST(CliDrawLimit, HelpListsIt) {
  EXPECT_NE(usage_text().find("--draw-limit"), std::string::npos);
}

}  // namespace
}  // namespace coalesce::testing
