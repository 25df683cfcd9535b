// Physics that holds at the edges, through the real executable: a state from anywhere in the accepted input
// range (two bodies so far apart that |d|^2 overflows, or bodies of every magnitude, mass and softening)
// steps on every --cpu-target this CPU runs, and in the mutual scheme, within docs/perf.md's bound of the
// scalar loop, never NaN; positions beyond the precision's range are refused before the run.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sim/cpu_simd.h"
#include "sim/layout.h"
#include "sim/sim_params.h"
#include "tests/app/run_process.h"
#include "tests/support/edge_states.h"
#include "tests/support/npy_writer.h"
#include "tests/support/scratch_files.h"
#include "tests/support/step_bound.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"
#include "tests/support/typed_value.h"

namespace coalesce::testing {
namespace {

using Args = std::vector<std::string>;

template <class Real>
std::vector<ParticleF64> widened(const std::vector<ParticleRecord<Real>>& state) {
  std::vector<ParticleF64> out;
  for (const auto& p : state) out.push_back({p.x, p.y, p.z, p.vx, p.vy, p.vz, p.mass});
  return out;
}

// One step of `state` by `loop` (--cpu-target and --forces), saved: exit 0, the stats line, a file of n
// records in the state's precision, nothing else left beside the input.
template <class Real>
std::vector<ParticleRecord<Real>> step_with(const Args& common, const Args& loop, const TempDir& dir,
                                            std::size_t n) {
  const std::string out = dir.file("out.npy");
  Args args = common;
  args.insert(args.end(), loop.begin(), loop.end());
  args.insert(args.end(), {"--steps", "1", "--save-state", out});
  const ProcessResult r = run_coalesce(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("steps=1"), std::string::npos) << r.out;
  EXPECT_TRUE(other_files(dir, {"in.npy", "out.npy"}).empty());
  auto records = saved_records<Real>(out, n);
  EXPECT_EQ(records.size(), n) << "not a state file of " << n << " records";
  std::remove(out.c_str());
  return records;
}

// Every loop against the scalar one-sided loop, velocity by velocity, within tests/support/step_bound.h.
template <class Real>
void check_every_loop(TestRng& rng, const std::vector<ParticleRecord<Real>>& state, const std::string& what) {
  constexpr bool fp64 = sizeof(Real) == sizeof(double);
  TempDir dir;
  const std::string in = dir.file("in.npy");
  std::ofstream(in, std::ios::binary) << npy_state_bytes(widened(state), fp64 ? "<f8" : "<f4", false);
  const TypedValue dt = typed_value(rng, 1e-9, 1e3), softening = typed_value(rng, 1e-6, 1e3);
  const Args common = {"--backend",    "cpu",
                       "--load-state", in,
                       "--precision",  fp64 ? "fp64" : "fp32",
                       "--layout",     std::string(to_string(random_layout(rng))),
                       "--solver",     "all-pairs",
                       "--dt",         dt.text,
                       "--softening",  softening.text};
  const std::size_t n = state.size();
  const auto reference = step_with<Real>(common, {"--cpu-target", "scalar", "--forces", "one-sided"}, dir, n);
  ASSERT_EQ(reference.size(), n);
  SimParams params;
  params.dt = dt.value;
  params.softening = softening.value;
  const long double eps2 = softening_squared<Real>(params), step = time_step<Real>(params);
  std::vector<Args> loops = {{"--cpu-target", "scalar", "--forces", "mutual"}};
  for (const CpuTargetInfo& row : kCpuTargetTable)
    if (row.target != CpuTarget::Scalar && cpu_target_supported(row.target))
      loops.push_back({"--cpu-target", std::string(row.name), "--forces", "one-sided"});
  const auto sources = sources_of(state);
  for (const Args& loop : loops) {
    const std::string where =
        what + " " + loop[1] + " " + loop[3] + " dt=" + dt.text + " eps=" + softening.text;
    const auto got = step_with<Real>(common, loop, dir, n);
    if (got.size() != n) continue;
    int bad = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const auto& a = got[i];
      const auto& b = reference[i];
      const long double target[3] = {state[i].x, state[i].y, state[i].z}, v[3] = {b.vx, b.vy, b.vz};
      const long double bound =
          velocity_bound<Real>(target, v, sources, eps2, step, 9, gradual_underflow_unit<Real>());
      for (const auto& [x, y] : {std::pair{a.vx, b.vx}, std::pair{a.vy, b.vy}, std::pair{a.vz, b.vz}})
        if (!(std::fabs(static_cast<long double>(x) - y) <= bound) && ++bad <= 3)  // NaN fails too
          ADD_FAILURE() << where << " body " << i << ": " << x << " vs " << y << ", bound "
                        << static_cast<double>(bound);
      if (a.vx == b.vx && a.vy == b.vy && a.vz == b.vz) {
        EXPECT_TRUE(a.x == b.x && a.y == b.y && a.z == b.z) << where;
      }
      EXPECT_EQ(a.mass, b.mass) << where;
    }
  }
}

template <class Real>
void check_far_pair(TestRng& rng) {
  check_every_loop(rng, far_pair<Real>(rng), "far pair");
}

TEST(CliFarStates, FarPairsStepWithinTheScalarBoundOnEveryLoop) {
  TestRng rng;
  check_far_pair<float>(rng);
  check_far_pair<double>(rng);
}

TEST(CliFarStates, StatesFromTheEdgesOfTheInputRangeStepWithinTheScalarBoundOnEveryLoop) {
  TestRng rng;
  check_every_loop(rng, edge_state<float>(rng, rng.uniform_int(2, 60)), "fp32 edge state");
  check_every_loop(rng, edge_state<double>(rng, rng.uniform_int(2, 60)), "fp64 edge state");
}

// A position beyond the precision's range (sim/limits.h) is refused at load with one line and the fix: in
// fp32 up to the float range's end (the fp64 run of the same file steps), in fp64 up to the double's.
TEST(CliFarStates, PositionsBeyondThePrecisionsRangeAreRefused) {
  TestRng rng;
  TempDir dir;
  const char* names[] = {"x", "y", "z"};
  for (const bool fp64 : {false, true}) {
    std::vector<ParticleF64> records = widened(random_particles(rng, rng.uniform_int(1, 40)));
    const int row = rng.uniform_int(0, static_cast<int>(records.size()) - 1), field = rng.uniform_int(0, 2);
    const DoubleRange& range = fp64 ? kPositionRangeFp64 : kPositionRangeFp32;
    const double end = fp64 ? DBL_MAX : FLT_MAX;
    const double beyond =
        random_sign(rng) * log_uniform(rng, std::log10(range.hi) + 1e-6, std::log10(end) - 1e-9);
    (&records[static_cast<std::size_t>(row)].x)[field] = fp64 ? beyond : static_cast<float>(beyond);
    const std::string in = dir.file("far.npy"), out = dir.file("never.npy");
    std::ofstream(in, std::ios::binary) << npy_state_bytes(records, fp64 ? "<f8" : "<f4", false);
    const ProcessResult r = run_coalesce({"--backend", "cpu", "--load-state", in, "--precision",
                                          fp64 ? "fp64" : "fp32", "--steps", "1", "--save-state", out});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    const std::vector<std::string> lines = r.err_lines();
    ASSERT_EQ(lines.size(), 1u) << r.err;
    const std::string expected =
        std::string("coalesce: --load-state ") + in + ": position " + names[field] + " = ";
    EXPECT_EQ(lines[0].rfind(expected, 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find(" at particle " + std::to_string(row) + " is beyond the " +
                            (fp64 ? "fp64" : "fp32") + " range of positions, " + describe(range)),
              std::string::npos)
        << lines[0];
    EXPECT_NE(lines[0].find(fp64 ? "; rescale the state" : "; run in fp64 or rescale the state"),
              std::string::npos)
        << lines[0];
    EXPECT_FALSE(std::ifstream(out).good());
    if (!fp64) {  // the same float32 file in fp64: inside fp64's range
      const ProcessResult wide = run_coalesce({"--backend", "cpu", "--load-state", in, "--precision", "fp64",
                                               "--steps", "0", "--save-state", out});
      EXPECT_EQ(wide.exit_code, 0) << wide.err;
      std::remove(out.c_str());
    }
  }
}

}  // namespace
}  // namespace coalesce::testing
