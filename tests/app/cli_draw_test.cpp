// --draw points|splat|auto: parsing, its one-line errors, and the combinations refused before anything
// runs (splat without the CUDA backend or without interop, --draw with --steps), through parse_arguments
// and through the real executable (exit 2, one line). Needs no GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "tests/app/run_process.h"
#include "tests/app/usage_error.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

TEST(CliDraw, DefaultIsAutoAndEachChoiceParses) {
  EXPECT_EQ(parse_arguments({}).draw, DrawChoice::Auto);
  EXPECT_EQ(parse_arguments({"--draw", "points"}).draw, DrawChoice::Points);
  EXPECT_EQ(parse_arguments({"--draw=splat"}).draw, DrawChoice::Splat);
  EXPECT_EQ(parse_arguments({"--draw", "auto"}).draw, DrawChoice::Auto);
  // --draw-limit stays, with either path.
  EXPECT_EQ(parse_arguments({"--draw", "splat", "--draw-limit", "1000"}).draw_limit, 1000);
}

TEST(CliDraw, BadValuesNameTheFlagAndTheChoices) {
  TestRng rng;
  std::string random_word;
  for (int i = rng.uniform_int(1, 8); i > 0; --i)
    random_word += static_cast<char>('a' + rng.uniform_int(0, 25));
  for (const std::string& bad : {std::string("Splat"), std::string("point"), std::string(""), random_word}) {
    if (bad == "points" || bad == "splat" || bad == "auto") continue;
    const std::string message = usage_error({"--draw", bad});
    EXPECT_NE(message.find("--draw"), std::string::npos) << "'" << bad << "': " << message;
    EXPECT_NE(message.find("points|splat|auto"), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  EXPECT_NE(usage_error({"--draw"}).find("needs a value"), std::string::npos);
  EXPECT_NE(usage_error({"bench", "--draw", "splat"}).find("not an option of coalesce bench"),
            std::string::npos);
}

TEST(CliDraw, SplatNeedsTheCudaBackendAndInterop) {
  const std::string cpu = usage_error({"--draw", "splat", "--backend", "cpu"});
  EXPECT_NE(cpu.find("--draw splat needs the CUDA backend"), std::string::npos) << cpu;
  EXPECT_NE(cpu.find("--draw points"), std::string::npos) << "the fix is named: " << cpu;
  const std::string no_interop = usage_error({"--draw", "splat", "--no-interop"});
  EXPECT_NE(no_interop.find("--no-interop"), std::string::npos) << no_interop;
  // Points and auto run anywhere.
  EXPECT_EQ(usage_error({"--draw", "points", "--backend", "cpu"}), "");
  EXPECT_EQ(usage_error({"--draw", "auto", "--backend", "cpu"}), "");
  EXPECT_NE(usage_error({"--draw", "points", "--steps", "5"}).find("--steps runs with no window"),
            std::string::npos);
}

void expect_one_line_exit_2(const std::vector<std::string>& args, const std::string& wanted) {
  const ProcessResult r = run_coalesce(args);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_NE(lines[0].find(wanted), std::string::npos) << lines[0];
}

TEST(CliDraw, ExecutableRefusesBadDrawsWithOneLine) {
  TestRng rng;
  const std::string n = std::to_string(rng.uniform_int(64, 4096));
  expect_one_line_exit_2({"--headless", "--frames", "2", "--particles", n, "--draw", "lines"}, "--draw");
  expect_one_line_exit_2(
      {"--headless", "--frames", "2", "--particles", n, "--backend", "cpu", "--draw", "splat"},
      "--draw splat needs the CUDA backend");
  expect_one_line_exit_2({"--headless", "--frames", "2", "--particles", n, "--no-interop", "--draw", "splat"},
                         "--no-interop");
  expect_one_line_exit_2({"--steps", "1", "--particles", n, "--draw", "points"}, "--draw");
}

TEST(CliDraw, HelpListsItAndTheDefaults) {
  const std::string help = usage_text();
  EXPECT_NE(help.find("--draw points|splat|auto"), std::string::npos) << help;
  EXPECT_NE(help.find("all with splat"), std::string::npos) << "the draw limit's default per path";
}

}  // namespace
}  // namespace coalesce::testing
