// The flags that replaced environment variables: --sweep, --lab-tab and --no-interop (viewer) and
// --no-warmup (lab). Good values land in Options, bad ones and senseless combinations are one-line usage
// errors that name the flag, and --help lists them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "tests/app/run_process.h"
#include "tests/app/usage_error.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

bool names(const std::string& message, const std::string& text) {
  return message.find(text) != std::string::npos;
}

TEST(CliScriptFlags, DefaultsChangeNothing) {
  const Options o = parse_arguments({});
  EXPECT_FALSE(o.sweep_frames.has_value());
  EXPECT_FALSE(o.sweep_precisions);
  EXPECT_TRUE(o.lab_tab.empty());
  EXPECT_FALSE(o.no_interop);
  EXPECT_FALSE(parse_arguments({"lab"}).lab_no_warmup);
}

TEST(CliScriptFlags, RandomGoodValuesLandInTheirFields) {
  TestRng rng;
  for (int trial = 0; trial < 100; ++trial) {
    const int sweep = rng.uniform_int(1, 100'000'000);
    const std::string name = "experiment" + std::to_string(rng.uniform_int(0, 1 << 20));
    const bool equals_form = rng.uniform_int(0, 1) == 1;
    const Args args = equals_form
                          ? Args{"--sweep=" + std::to_string(sweep), "--lab-tab=" + name, "--no-interop"}
                          : Args{"--sweep", std::to_string(sweep), "--lab-tab", name, "--no-interop"};
    const Options o = parse_arguments(args);
    ASSERT_EQ(o.sweep_frames, sweep) << args[0];
    ASSERT_EQ(o.lab_tab, name);
    ASSERT_TRUE(o.no_interop);
  }
  EXPECT_TRUE(parse_arguments({"lab", "--no-warmup", "--repeats", "1"}).lab_no_warmup);
}

TEST(CliScriptFlags, BadValuesNameTheFlagInOneLine) {
  for (const char* bad : {"0", "-1", "abc", "1.5", "", "100000001", "99999999999999999999"}) {
    const std::string message = usage_error({"--sweep", bad});
    EXPECT_TRUE(names(message, "--sweep")) << "'" << bad << "': " << message;
    EXPECT_TRUE(names(message, "try --sweep 60")) << "'" << bad << "': " << message;
    EXPECT_FALSE(names(message, "\n")) << message;
  }
  EXPECT_TRUE(names(usage_error({"--lab-tab="}), "--lab-tab needs a lab experiment name (try --lab-tab"));
  EXPECT_TRUE(names(usage_error({"--lab-tab"}), "--lab-tab needs a value"));
  EXPECT_TRUE(names(usage_error({"--no-interop=1"}), "--no-interop takes no value"));
  EXPECT_TRUE(names(usage_error({"lab", "--no-warmup=yes"}), "--no-warmup takes no value"));
}

TEST(CliScriptFlags, EachBelongsToItsCommand) {
  for (const Args& args :
       {Args{"bench", "--sweep", "5"}, Args{"lab", "--lab-tab", "transpose"}, Args{"bench", "--no-interop"}})
    EXPECT_TRUE(names(usage_error(args), "belongs to the viewer")) << args[1] << ": " << usage_error(args);
  EXPECT_TRUE(names(usage_error({"--no-warmup"}), "belongs to coalesce lab")) << usage_error({"--no-warmup"});
  EXPECT_TRUE(names(usage_error({"bench", "--no-warmup"}), "belongs to coalesce lab"));
}

// --counters is the default; --no-counters turns the counters off for the viewer (its live sampler), bench
// and lab (the counter pass); the last flag wins.
TEST(CliScriptFlags, CountersAreOnUnlessTurnedOff) {
  for (const std::vector<std::string>& command : {std::vector<std::string>{}, {"bench"}, {"lab"}}) {
    const auto with = [&](std::vector<std::string> flags) {
      flags.insert(flags.begin(), command.begin(), command.end());
      return flags;
    };
    const std::string name = command.empty() ? "viewer" : command.front();
    EXPECT_TRUE(parse_arguments(with({})).counters) << name;
    EXPECT_FALSE(parse_arguments(with({"--no-counters"})).counters) << name;
    EXPECT_TRUE(parse_arguments(with({"--no-counters", "--counters"})).counters) << name;
  }
  EXPECT_TRUE(names(usage_error({"bench", "--no-counters=1"}), "--no-counters takes no value"));
}

TEST(CliScriptFlags, CombinationsThatDrawNothingAreRefused) {
  // --steps renders no frame: a sweep, a tab or a render path would be silently ignored.
  for (const Args& flag :
       {Args{"--sweep", "3"}, Args{"--sweep-precisions"}, Args{"--lab-tab", "banks"}, Args{"--no-interop"}}) {
    Args args{"--steps", "10"};
    args.insert(args.end(), flag.begin(), flag.end());
    const std::string message = usage_error(args);
    EXPECT_TRUE(names(message, flag[0] + " needs frames to render, but --steps runs with no window"))
        << message;
  }
  EXPECT_TRUE(names(usage_error({"--backend", "cpu", "--no-interop"}), "drop --no-interop"));
  // With frames to draw they combine with each other and with a screenshot.
  EXPECT_EQ(usage_error({"--headless", "--frames", "30", "--sweep", "8", "--lab-tab", "transpose",
                         "--no-interop", "--screenshot", "a.png"}),
            "");
  EXPECT_EQ(usage_error({"--backend", "cuda", "--no-interop"}), "");
  // --sweep-precisions widens --sweep; alone it would sweep nothing.
  EXPECT_TRUE(names(usage_error({"--headless", "--frames", "30", "--sweep-precisions"}),
                    "--sweep-precisions says what --sweep FRAMES sweeps, but no --sweep was given"));
  EXPECT_TRUE(
      names(usage_error({"--sweep-precisions=1", "--sweep", "3"}), "--sweep-precisions takes no value"));
  const Options both = parse_arguments({"--sweep", "3", "--sweep-precisions", "--precision", "fp64"});
  EXPECT_TRUE(both.sweep_precisions);
  EXPECT_EQ(both.precision, Precision::Fp64);
}

TEST(CliScriptFlags, ExecutableRefusesSweepWithStepsInOneLine) {
  TestRng rng;
  const std::string frames = std::to_string(rng.uniform_int(1, 1000));
  const ProcessResult r = run_coalesce({"--backend", "cpu", "--steps", "1", "--sweep", frames});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_TRUE(names(lines[0], "--sweep")) << lines[0];
}

TEST(CliScriptFlags, HelpListsThem) {
  const std::string help = usage_text();
  for (const char* flag :
       {"--sweep FRAMES", "--sweep-precisions", "--lab-tab NAME", "--no-interop", "--no-warmup"})
    EXPECT_TRUE(names(help, flag)) << flag;
  EXPECT_TRUE(names(help, "P precision")) << "the key that switches precision";
}

}  // namespace
}  // namespace coalesce::testing
