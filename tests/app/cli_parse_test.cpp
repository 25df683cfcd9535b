// parse_arguments: good command lines land in the right fields, random valid values round-trip, and each
// kind of bad input throws a UsageError whose one line names the flag and a fix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "sim/errors.h"
#include "sim/layout.h"
#include "sim/limits.h"
#include "tests/app/usage_error.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::Args;
using testing::usage_error;

TEST(CliParse, DefaultsWithNoArguments) {
  const Options o = parse_arguments({});
  EXPECT_EQ(o.command, Command::Viewer);
  EXPECT_EQ(o.backend, BackendChoice::Auto);
  EXPECT_EQ(o.layout, Layout::Float4);
  EXPECT_EQ(o.scene, "galaxies");
  EXPECT_FALSE(o.particles || o.dt || o.softening || o.seed || o.solver || o.pack || o.steps || o.frames);
  EXPECT_FALSE(o.show_help || o.show_version || o.headless);
}

TEST(CliParse, EveryViewerOptionLandsInItsField) {
  const Options o = parse_arguments({"--backend",    "cpu",
                                     "--layout=soa", "--solver",
                                     "attractors",   "--scene",
                                     "plummer",      "--particles",
                                     "4096",         "--dt=0.002",
                                     "--softening",  "0.25",
                                     "--seed",       "18446744073709551615",
                                     "--pack",       "tiled-padded",
                                     "--width",      "800",
                                     "--height=600", "--headless",
                                     "--frames",     "3",
                                     "--screenshot", "shot.png",
                                     "--save-state", "a.npy"});
  EXPECT_EQ(o.backend, BackendChoice::Cpu);
  EXPECT_EQ(o.layout, Layout::SoA);
  EXPECT_EQ(o.solver, ForceMethod::Attractors);
  EXPECT_EQ(o.scene, "plummer");
  EXPECT_EQ(o.particles, 4096);
  EXPECT_EQ(o.dt, 0.002);  // as typed, not the float 0.0020000000949949026
  EXPECT_EQ(o.softening, 0.25f);
  EXPECT_EQ(o.seed, 18446744073709551615ull);
  EXPECT_EQ(o.pack, PackVariant::TiledPadded);
  EXPECT_EQ(o.width, 800);
  EXPECT_EQ(o.height, 600);
  EXPECT_TRUE(o.headless);
  EXPECT_EQ(o.frames, 3);
  EXPECT_EQ(o.screenshot, "shot.png");
  EXPECT_EQ(o.save_state, "a.npy");
}

TEST(CliParse, StepsAndLoadState) {
  const Options o = parse_arguments({"--steps", "0", "--load-state", "in.npy", "--backend=cuda"});
  EXPECT_EQ(o.steps, 0);
  EXPECT_EQ(o.load_state, "in.npy");
  EXPECT_EQ(o.backend, BackendChoice::Cuda);
}

TEST(CliParse, BenchTakesListsOfSizesAndLayouts) {
  const Options o = parse_arguments({"bench", "--particles", "65536,262144", "--layouts=aos,float4", "--json",
                                     "r.json", "--repeats", "7", "--solver", "all-pairs"});
  EXPECT_EQ(o.command, Command::Bench);
  EXPECT_EQ(o.bench_particles, (std::vector<int>{65536, 262144}));
  EXPECT_EQ(o.bench_layouts, (std::vector<Layout>{Layout::AoS, Layout::Float4}));
  EXPECT_EQ(o.json, "r.json");
  EXPECT_EQ(o.repeats, 7);
  EXPECT_FALSE(o.particles.has_value());
}

TEST(CliParse, LabTakesSizeAndOnly) {
  const Options o = parse_arguments({"lab", "--size", "4096", "--only", "transpose,copy", "--json=l.json"});
  EXPECT_EQ(o.command, Command::Lab);
  EXPECT_EQ(o.lab_size, 4096);
  EXPECT_EQ(o.lab_only, (std::vector<std::string>{"transpose", "copy"}));
  EXPECT_EQ(o.json, "l.json");
}

TEST(CliParse, HelpAndVersionWinOverOtherRules) {
  EXPECT_TRUE(parse_arguments({"--help"}).show_help);
  EXPECT_TRUE(parse_arguments({"-h"}).show_help);
  EXPECT_TRUE(parse_arguments({"bench", "--help"}).show_help);
  EXPECT_TRUE(parse_arguments({"--version"}).show_version);
  EXPECT_TRUE(parse_arguments({"--headless", "--help"}).show_help);  // would need --frames otherwise
}

TEST(CliParse, RandomValidValuesRoundTrip) {
  testing::TestRng rng;
  for (int trial = 0; trial < 200; ++trial) {
    const int particles = rng.uniform_int(1, kMaxParticles);
    // Log-uniform over each whole range (sim/limits.h), ends included.
    const auto log_uniform = [&](const DoubleRange& r) {
      const double u = std::uniform_real_distribution<double>(std::log(r.lo), std::log(r.hi))(rng.engine());
      return std::clamp(std::exp(u), r.lo, r.hi);
    };
    const double dt = log_uniform(kTimeStepRange);
    const double softening = log_uniform(kSofteningRange);
    const auto exact = [](double v) {  // 17 digits: every double round-trips
      char text[32];
      std::snprintf(text, sizeof text, "%.17g", v);
      return std::string(text);
    };
    const std::uint64_t seed = rng.engine()();
    const int width = rng.uniform_int(64, 16384);
    const int frames = rng.uniform_int(1, 100000);
    const Layout layout = testing::random_layout(rng);
    const PackVariant pack = random_pack_variant(rng);
    const bool equals_form = rng.uniform_int(0, 1) == 1;
    Args args;
    const auto add = [&](const std::string& flag, const std::string& value) {
      if (equals_form) {
        args.push_back(flag + "=" + value);
      } else {
        args.push_back(flag);
        args.push_back(value);
      }
    };
    add("--particles", std::to_string(particles));
    add("--dt", exact(dt));
    add("--softening", exact(softening));
    add("--seed", std::to_string(seed));
    add("--width", std::to_string(width));
    add("--frames", std::to_string(frames));
    add("--layout", std::string(to_string(layout)));
    add("--pack", std::string(to_string(pack)));
    const Options o = parse_arguments(args);
    ASSERT_EQ(o.particles, particles);
    ASSERT_EQ(o.dt, dt);
    ASSERT_EQ(o.softening, softening);
    ASSERT_EQ(o.seed, seed);
    ASSERT_EQ(o.width, width);
    ASSERT_EQ(o.frames, frames);
    ASSERT_EQ(o.layout, layout);
    ASSERT_EQ(o.pack, pack);
  }
}

TEST(CliParse, BadNumbersNameTheFlagAndAnExample) {
  for (const char* bad : {"0", "-5", "abc", "1e99", "12x", "", "99999999999999999999", "2147483648", " 5"}) {
    const std::string message = usage_error({"--particles", bad});
    EXPECT_NE(message.find("--particles"), std::string::npos) << bad << ": " << message;
    EXPECT_NE(message.find("try --particles"), std::string::npos) << bad << ": " << message;
  }
  for (const char* bad : {"0", "-1", "nan", "inf", "1e99", "0.1s", "-0"}) {
    const std::string message = usage_error({"--dt", bad});
    EXPECT_NE(message.find("--dt"), std::string::npos) << bad << ": " << message;
  }
  EXPECT_NE(usage_error({"--softening", "-0.1"}).find("--softening"), std::string::npos);
  EXPECT_NE(usage_error({"--softening", "0"}).find("expected a number from 1e-6 to 1000"), std::string::npos);
  // The limits hold at the edges, and the message states them.
  EXPECT_EQ(usage_error({"--softening", "1e-6"}), "");
  EXPECT_NE(usage_error({"--softening", "1e-45"}).find("out of range; expected a number from 1e-6"),
            std::string::npos);
  EXPECT_NE(usage_error({"--dt", "1e-300"}).find("out of range; expected a number from 1e-9 to 1000"),
            std::string::npos);
  EXPECT_EQ(usage_error({"--particles", "134217728"}), "");
  EXPECT_NE(
      usage_error({"--particles", "134217729"}).find("too large; expected an integer from 1 to 134217728"),
      std::string::npos);
  EXPECT_NE(
      usage_error({"bench", "--particles", "1024,134217729"}).find("--particles 134217729 is too large"),
      std::string::npos);
  EXPECT_NE(usage_error({"--steps", "1000000000001"})
                .find("too large; expected an integer from 0 to 1000000000000"),
            std::string::npos);
  EXPECT_NE(usage_error({"lab", "--size", "1000"}).find("not a multiple of 256"), std::string::npos);
  EXPECT_NE(usage_error({"lab", "--size", "32768"}).find("too large"), std::string::npos);
  EXPECT_NE(usage_error({"--seed", "-1"}).find("--seed"), std::string::npos);
  EXPECT_NE(usage_error({"--width", "10"}).find("from 64 to 16384"), std::string::npos);
  EXPECT_NE(usage_error({"--height", "100000"}).find("--height"), std::string::npos);
  EXPECT_NE(usage_error({"--headless", "--frames", "0"}).find("--frames"), std::string::npos);
  EXPECT_NE(usage_error({"--steps", "-1"}).find("--steps"), std::string::npos);
  EXPECT_NE(usage_error({"bench", "--particles", "1024,,4096"}).find("--particles"), std::string::npos);
  EXPECT_NE(usage_error({"bench", "--particles", "1024,0"}).find("--particles"), std::string::npos);
  EXPECT_NE(usage_error({"bench", "--repeats", "0"}).find("--repeats"), std::string::npos);
  EXPECT_NE(usage_error({"--theta", "1.5"}).find("--theta"), std::string::npos);
  EXPECT_NE(usage_error({"--theta", "-0.1"}).find("--theta"), std::string::npos);
  EXPECT_NE(usage_error({"--theta", "nan"}).find("--theta"), std::string::npos);
}

// --theta is the tree's setting, kept as typed; unset, the backend keeps the default.
TEST(CliParse, ThetaIsTheTreesSetting) {
  testing::TestRng rng;
  const double theta = std::round(rng.uniform(0.0f, 1.0f) * 1000) / 1000;
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", theta);
  const Options o = parse_arguments({"--solver", "tree", "--theta", text});
  EXPECT_EQ(o.solver, ForceMethod::Tree);
  EXPECT_EQ(tree_settings_of(o).theta, std::strtod(text, nullptr)) << text;
  EXPECT_EQ(tree_settings_of(parse_arguments({})).theta, kDefaultTheta);
}

TEST(CliParse, BadChoicesListTheGoodOnes) {
  EXPECT_NE(usage_error({"--layout", "xyz"}).find(std::string(kLayoutChoices)), std::string::npos);
  EXPECT_NE(usage_error({"--pack", "bogus"}).find("naive|tiled|tiled-padded|vector"), std::string::npos);
  EXPECT_NE(usage_error({"--solver", "barnes-hut"}).find(std::string(kSolverFamilyChoices)),
            std::string::npos);
  EXPECT_NE(usage_error({"--backend", "opencl"}).find("cuda|cpu"), std::string::npos);
  EXPECT_NE(usage_error({"bench", "--layouts", "aos,xyz"}).find("xyz"), std::string::npos);
  EXPECT_NE(usage_error({"bench", "--layouts", "aos,aos"}).find("twice"), std::string::npos);
}

TEST(CliParse, UnknownFlagsSuggestTheClosest) {
  EXPECT_NE(usage_error({"--partcles", "5"}).find("did you mean --particles?"), std::string::npos);
  EXPECT_NE(usage_error({"-particles", "5"}).find("did you mean --particles?"), std::string::npos);
  EXPECT_NE(usage_error({"--screnshot=a.png"}).find("did you mean --screenshot?"), std::string::npos);
  const std::string far = usage_error({"--zzzzzzzzzzzz"});
  EXPECT_NE(far.find("unknown option '--zzzzzzzzzzzz'"), std::string::npos) << far;
  EXPECT_NE(far.find("--help"), std::string::npos) << far;
}

TEST(CliParse, StructuralErrors) {
  EXPECT_NE(usage_error({"--particles"}).find("needs a value"), std::string::npos);
  EXPECT_NE(usage_error({"--scene", "--dt", "1"}).find("--scene needs a value"), std::string::npos);
  EXPECT_NE(usage_error({"--headless=yes", "--frames", "1"}).find("takes no value"), std::string::npos);
  EXPECT_NE(usage_error({"--dt", "1", "--dt", "2"}).find("twice"), std::string::npos);
  EXPECT_NE(usage_error({"stray"}).find("unexpected argument 'stray'"), std::string::npos);
  EXPECT_NE(usage_error({"--dt", "1", "bench"}).find("must come first"), std::string::npos);
  EXPECT_NE(usage_error({"--layouts", "aos"}).find("coalesce bench"), std::string::npos);
  EXPECT_NE(usage_error({"lab", "--particles", "5"}).find("not an option of coalesce lab"),
            std::string::npos);
  EXPECT_NE(usage_error({"bench", "--size", "5"}).find("coalesce lab"), std::string::npos);
  // bench times kernels whose cost does not depend on the scene's values: it takes no scene options.
  for (const char* flag : {"--scene", "--dt", "--softening", "--seed"})
    EXPECT_NE(usage_error({"bench", flag, "1"}).find("not an option of coalesce bench"), std::string::npos)
        << flag;
  EXPECT_NE(usage_error({"bench", "--layout", "aos"}).find("did you mean --layouts?"), std::string::npos);
}

TEST(CliParse, CombinationRules) {
  EXPECT_NE(usage_error({"--headless"}).find("--headless needs --frames"), std::string::npos);
  EXPECT_NE(usage_error({"--screenshot", "a.png"}).find("--screenshot needs --frames"), std::string::npos);
  EXPECT_NE(usage_error({"--steps", "5", "--frames", "2"}).find("--steps"), std::string::npos);
  EXPECT_NE(usage_error({"--load-state", "a.npy", "--particles", "5"}).find("--load-state"),
            std::string::npos);
  // A screenshot with a window, and --steps with --headless, are fine.
  EXPECT_EQ(usage_error({"--frames", "10", "--screenshot", "a.png"}), "");
  EXPECT_EQ(usage_error({"--steps", "10", "--headless"}), "");
}

TEST(CliParse, EveryErrorIsOneLine) {
  for (const Args& args : {Args{"--partcles"}, Args{"--dt", "nan"}, Args{"--layout"}, Args{"--headless"},
                           Args{"lab", "--layout", "aos"}, Args{"x"}}) {
    const std::string message = usage_error(args);
    EXPECT_FALSE(message.empty());
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(CliText, HelpListsEveryOptionAndVersionNamesTheRelease) {
  const std::string help = usage_text();
  for (const char* flag :
       {"--backend",   "--layout",     "--solver", "--scene",      "--particles",  "--dt",
        "--softening", "--seed",       "--pack",   "--width",      "--height",     "--headless",
        "--frames",    "--screenshot", "--steps",  "--save-state", "--load-state", "--layouts",
        "--json",      "--repeats",    "--size",   "--only",       "--help",       "--version"})
    EXPECT_NE(help.find(flag), std::string::npos) << flag;
  EXPECT_EQ(version_text().rfind("coalesce " COALESCE_VERSION, 0), 0u) << version_text();
}

}  // namespace
}  // namespace coalesce
