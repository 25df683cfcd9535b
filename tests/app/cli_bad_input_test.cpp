// Bad input (docs/reliability.md) through the real executable: every bad input exits with 2 and exactly
// one stderr line that names the problem. Usage errors (anything the user typed or pointed at) are 2; 1 is for failures while
// running, which these inputs must never reach.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "sim/layout.h"
#include "tests/support/npy_writer.h"
#include "tests/app/run_process.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

using Args = std::vector<std::string>;

// Runs coalesce and checks: exit code 2, exactly one stderr line, starting "coalesce: " and containing
// every one of `needles`.
void expect_usage_error(const Args& args, const std::vector<std::string>& needles) {
  std::string shown = "coalesce";
  for (const std::string& a : args) shown += " " + a;
  SCOPED_TRACE(shown);
  const ProcessResult r = run_coalesce(args);
  EXPECT_EQ(r.exit_code, 2) << "stderr: " << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << "stderr: " << r.err;
  EXPECT_EQ(r.err.back(), '\n');
  EXPECT_EQ(lines[0].rfind("coalesce: ", 0), 0u) << lines[0];
  for (const std::string& needle : needles) EXPECT_NE(lines[0].find(needle), std::string::npos) << lines[0];
}

std::vector<char> random_state_bytes(TestRng& rng, int n) {
  return bytes_of(random_particles(rng, n));
}

TEST(CliBadInput, UnknownFlagSuggestsTheClosest) {
  expect_usage_error({"--steps", "1", "--partcles", "5"}, {"unknown option '--partcles'", "--particles"});
  expect_usage_error({"--frobnicate"}, {"unknown option", "--help"});
}

TEST(CliBadInput, BadParticleCounts) {
  for (const char* bad : {"0", "-5", "abc", "1e99"})
    expect_usage_error({"--backend", "cpu", "--steps", "1", "--particles", bad}, {"--particles", bad});
}

TEST(CliBadInput, BadTimeSteps) {
  for (const char* bad : {"0", "-1", "nan"})
    expect_usage_error({"--backend", "cpu", "--steps", "1", "--dt", bad}, {"--dt", bad});
}

TEST(CliBadInput, UnknownLayoutAndPackVariant) {
  expect_usage_error({"--layout", "xyz"}, {"--layout", "xyz", std::string(kLayoutChoices)});
  expect_usage_error({"--pack=bogus"}, {"--pack", "bogus", "tiled"});
}

TEST(CliBadInput, MissingValue) {
  expect_usage_error({"--steps", "1", "--particles"}, {"--particles needs a value"});
}

TEST(CliBadInput, OptionOfAnotherCommand) {
  expect_usage_error({"lab", "--particles", "5"}, {"--particles", "not an option of coalesce lab"});
}

TEST(CliBadInput, MissingSceneFile) {
  TempDir dir;
  const std::string missing = dir.file("no-such-scene.toml");
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--scene", missing}, {missing, "neither a preset"});
}

TEST(CliBadInput, MalformedSceneFileNamesFileAndLine) {
  TempDir dir;
  const std::string path = dir.file("bad.toml");
  std::ofstream(path) << "# a scene with a negative time step on line 4\ninitial = \"plummer\"\n"
                         "particles = 100\ndt = -0.5\n";
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--scene", path}, {path + ":4:", "dt"});

  const std::string syntax = dir.file("syntax.toml");
  std::ofstream(syntax) << "initial = \"plummer\"\nparticles = = 5\n";
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--scene", syntax}, {syntax + ":2:"});
}

TEST(CliBadInput, LoadStateWrongShape) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1, 64);
  const std::string path = dir.file("shape.npy");
  std::vector<float> values(static_cast<std::size_t>(n) * 6, 1.0f);
  write_npy(path, "<f4", "(" + std::to_string(n) + ", 6)", bytes_of(values));
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--load-state", path}, {path, "7"});
}

TEST(CliBadInput, LoadStateWrongDtype) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1, 64);
  const std::string path = dir.file("dtype.npy");
  std::vector<std::int32_t> values(static_cast<std::size_t>(n) * 7, 1);  // '<f8' and '>f4' load: sim/npy.h
  write_npy(path, "<i4", "(" + std::to_string(n) + ", 7)", bytes_of(values));
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--load-state", path}, {path, "'<i4'", "f4"});
}

TEST(CliBadInput, LoadStateNonFiniteValues) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(2, 64);
  std::vector<Particle> state = random_particles(rng, n);
  float* fields = &state[static_cast<std::size_t>(rng.uniform_int(0, n - 1))].x;
  fields[rng.uniform_int(0, kFieldsPerParticle - 1)] = rng.uniform_int(0, 1)
                                                           ? std::numeric_limits<float>::quiet_NaN()
                                                           : std::numeric_limits<float>::infinity();
  const std::string path = dir.file("nan.npy");
  write_npy(path, "<f4", "(" + std::to_string(n) + ", 7)", bytes_of(state));
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--load-state", path}, {path, "finite"});
}

TEST(CliBadInput, LoadStateTruncated) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(2, 64);
  std::vector<char> payload = random_state_bytes(rng, n);
  payload.resize(payload.size() - static_cast<std::size_t>(rng.uniform_int(1, 27)));
  const std::string path = dir.file("truncated.npy");
  write_npy(path, "<f4", "(" + std::to_string(n) + ", 7)", payload);
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--load-state", path}, {path});
}

TEST(CliBadInput, LoadStateMissingFile) {
  TempDir dir;
  const std::string path = dir.file("absent.npy");
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--load-state", path}, {"--load-state", path});
}

TEST(CliBadInput, OutputsIntoMissingDirectories) {
  TempDir dir;
  const std::string state = dir.file("no-dir/state.npy");
  expect_usage_error({"--backend", "cpu", "--steps", "1", "--save-state", state}, {"--save-state", "no-dir"});
  const std::string shot = dir.file("no-dir/shot.png");
  expect_usage_error({"--headless", "--frames", "1", "--screenshot", shot}, {"--screenshot", "no-dir"});
  const std::string json = dir.file("no-dir/bench.json");
  expect_usage_error({"bench", "--json", json}, {"--json", "no-dir"});
}

TEST(CliBadInput, HeadlessWithoutFrames) {
  expect_usage_error({"--headless"}, {"--headless needs --frames"});
}

TEST(CliProgram, HelpGoesToStdoutAndExitsZero) {
  const ProcessResult r = run_coalesce({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("--particles"), std::string::npos);
  EXPECT_NE(r.out.find("coalesce bench"), std::string::npos);
}

TEST(CliProgram, VersionPrintsTheRelease) {
  const ProcessResult r = run_coalesce({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("coalesce " COALESCE_VERSION, 0), 0u) << r.out;
}

TEST(CliProgram, StepsPrintsOneStatsLine) {
  TestRng rng;
  const std::string n = std::to_string(rng.uniform_int(2, 400));
  const std::string steps = std::to_string(rng.uniform_int(0, 20));
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--scene", "plummer", "--particles", n, "--steps", steps});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
  for (const std::string& needle :
       {"N=" + n, "steps=" + steps, std::string("drift"), std::string("momentum")})
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle << " in " << r.out;
}

}  // namespace
}  // namespace coalesce::testing
