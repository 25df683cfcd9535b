// --save-state and --load-state through the real executable on the CPU backend: a state survives a
// load + save with zero steps bit for bit on every layout, and a saved run continues exactly where it
// stopped.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sim/layout.h"
#include "tests/support/npy_writer.h"
#include "tests/app/run_process.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

using Args = std::vector<std::string>;

void expect_success(const Args& args) {
  const ProcessResult r = run_coalesce(args);
  ASSERT_EQ(r.exit_code, 0) << "stderr: " << r.err << "stdout: " << r.out;
  EXPECT_NE(r.out.find("steps="), std::string::npos) << r.out;  // the stats line
}

TEST(CliState, ZeroStepsRoundTripsBitwiseOnEveryLayout) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1, 300);
  const std::vector<char> payload = bytes_of(random_particles(rng, n));
  const std::string in = dir.file("in.npy");
  write_npy(in, "<f4", "(" + std::to_string(n) + ", 7)", payload);
  for (Layout layout : kAllLayouts) {
    SCOPED_TRACE(std::string(to_string(layout)));
    const std::string out = dir.file("out-" + std::string(to_string(layout)) + ".npy");
    expect_success({"--backend", "cpu", "--layout", std::string(to_string(layout)), "--load-state", in,
                    "--steps", "0", "--save-state", out});
    EXPECT_TRUE(npy_payload(out) == payload) << "state changed in a zero-step load + save, n=" << n;
  }
}

TEST(CliState, SavedRunContinuesExactly) {
  TestRng rng;
  TempDir dir;
  const std::string n = std::to_string(rng.uniform_int(64, 256));
  const std::string seed = std::to_string(rng.engine()());
  const std::string layout(to_string(testing::random_layout(rng)));
  // A scheme named: auto is a measurement, and the two runs could measure their way to different schemes.
  const std::string forces = rng.uniform_int(0, 1) ? "mutual" : "one-sided";
  const Args common = {"--backend", "cpu", "--layout", layout, "--scene", "plummer", "--solver", "all-pairs",
                       "--forces",  forces};
  const auto with = [&](Args extra) {
    Args args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const std::string straight = dir.file("straight.npy"), half = dir.file("half.npy"),
                    rest = dir.file("rest.npy");
  expect_success(with({"--particles", n, "--seed", seed, "--steps", "30", "--save-state", straight}));
  expect_success(with({"--particles", n, "--seed", seed, "--steps", "20", "--save-state", half}));
  expect_success(with({"--load-state", half, "--steps", "10", "--save-state", rest}));
  const std::vector<char> a = npy_payload(straight), b = npy_payload(rest);
  ASSERT_EQ(a.size(), std::stoul(n) * sizeof(Particle)) << "n=" << n;
  EXPECT_TRUE(a == b) << "30 steps differ from 20 + save + load + 10 (n=" << n << ", seed=" << seed
                      << ", layout=" << layout << ", forces=" << forces << ")";
  EXPECT_FALSE(a == npy_payload(half)) << "the last 10 steps changed nothing";
}

// A run never writes over its own input (docs/reliability.md): save to another path, then move it if wanted.
TEST(CliState, SaveStateNeverReplacesTheLoadedFile) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1, 50);
  const std::vector<char> payload = bytes_of(random_particles(rng, n));
  const std::string path = dir.file("state.npy");
  write_npy(path, "<f4", "(" + std::to_string(n) + ", 7)", payload);
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--load-state", path, "--steps", "0", "--save-state", path});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--load-state's file"), std::string::npos) << r.err;
  EXPECT_TRUE(npy_payload(path) == payload);
}

}  // namespace
}  // namespace coalesce::testing
