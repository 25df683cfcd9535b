// fp64 is fp64 all the way down, through the real executable: --dt, --softening and a scene file's
// attractors are kept as typed, so an fp64 run matches a long-double reference stepped with the typed values
// at 1e-12 (with float parameters it was about 1e-10 off), on the scalar loop and the widest SIMD target, in
// both all-pairs schemes; and values are judged as typed, so 1e12 + 20000 is not a mass in [0, 1e12].
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "sim/cpu_simd.h"
#include "sim/layout.h"
#include "tests/app/run_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/reference_nbody.h"
#include "tests/support/scratch_files.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"
#include "tests/support/typed_value.h"

namespace coalesce::testing {
namespace {

using Args = std::vector<std::string>;

constexpr double kTolerance = 1e-12;

struct Typed {
  TypedValue dt, softening;
  int steps;
};

// dt and enough steps that the run moves the state by about 1e-2 of its scale, where a float's rounding of
// dt (up to 6e-8 of it) shows at about 1e-10 and an fp64 run's own rounding at about 1e-15.
Typed random_typed(TestRng& rng) {
  return {typed_value(rng, 2e-3, 1e-2), typed_value(rng, 0.01, 0.3), rng.uniform_int(10, 20)};
}

// The long-double reference of `method` stepped with the typed values; `draw` makes the parameters, again
// until the same reference stepped with them rounded to float is farther than 10x the tolerance from it (else
// this run could not tell typed from float parameters).
template <class Real, class Draw>
std::vector<ReferenceBody> typed_reference(const std::vector<ParticleRecord<Real>>& start, ForceMethod method,
                                           Draw&& draw) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    const auto [params, steps] = draw();
    auto typed = reference_run(start, method, params, steps);
    if (relative_error_to(reference_records(reference_run(start, method, float_parameters(params), steps)),
                          typed) > 10 * kTolerance)
      return typed;
  }
  ADD_FAILURE() << "20 draws of parameters a float run would also pass";
  return {};
}

// Runs coalesce with `args` and returns the fp64 state it saved to `out`: exit 0, the stats line, a '<f8'
// file of n records, and nothing else left in the folder.
std::vector<ParticleF64> run_fp64(const Args& args, const TempDir& dir,
                                  const std::vector<std::string>& inputs, std::size_t n) {
  const std::string out = dir.file("out.npy");
  Args all = args;
  all.insert(all.end(), {"--precision", "fp64", "--save-state", out});
  const ProcessResult r = run_coalesce(all);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("steps="), std::string::npos) << r.out;
  std::vector<std::string> expected = inputs;
  expected.push_back("out.npy");
  EXPECT_TRUE(other_files(dir, expected).empty());
  auto records = saved_records<double>(out, n);
  EXPECT_EQ(records.size(), n) << "not a '<f8' file of " << n << " records: " << out;
  return records;
}

TEST(CliFp64Params, AllPairsStepsWithTheTypedDtAndSofteningOnEveryCpuLoop) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(2, 150);
  const std::vector<ParticleF64> start = random_particles_wide(rng, n);
  const std::string in = dir.file("in.npy");
  std::ofstream(in, std::ios::binary) << npy_state_bytes(start, "<f8", false);
  Typed p;
  const auto typed = typed_reference(start, ForceMethod::OneSidedAllPairs, [&] {
    p = random_typed(rng);
    SimParams params;
    params.dt = p.dt.value;
    params.softening = p.softening.value;
    return std::pair{params, p.steps};
  });
  ASSERT_FALSE(typed.empty());
  const std::string layout(to_string(random_layout(rng)));
  for (const CpuTarget target : {CpuTarget::Scalar, best_cpu_target()})
    for (const char* forces : {"one-sided", "mutual"}) {
      const std::string where = std::string(to_string(target)) + " " + forces + " " + layout +
                                " n=" + std::to_string(n) + " dt=" + p.dt.text + " eps=" + p.softening.text +
                                " steps=" + std::to_string(p.steps);
      const auto got =
          run_fp64({"--backend", "cpu", "--cpu-target", std::string(to_string(target)), "--layout", layout,
                    "--load-state", in, "--solver", "all-pairs", "--forces", forces, "--dt", p.dt.text,
                    "--softening", p.softening.text, "--steps", std::to_string(p.steps)},
                   dir, {"in.npy"}, start.size());
      EXPECT_LE(relative_error_to(got, typed), kTolerance) << where;
    }
}

// The attractors solver from a scene file: dt, softening and every attractor parameter typed in the file.
TEST(CliFp64Params, AttractorsStepWithTheSceneFilesTypedValues) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1, 200);
  const std::vector<ParticleF64> start = random_particles_wide(rng, n);
  const std::string in = dir.file("in.npy"), scene = dir.file("typed.toml");
  std::ofstream(in, std::ios::binary) << npy_state_bytes(start, "<f8", false);
  Typed p;
  std::string toml;
  const auto typed = typed_reference(start, ForceMethod::Attractors, [&] {
    p = random_typed(rng);
    SimParams params;
    params.dt = p.dt.value;
    params.softening = p.softening.value;
    params.attractors.count = rng.uniform_int(1, kMaxAttractors);
    toml = "solver = \"attractors\"\ndt = " + p.dt.text + "\nsoftening = " + p.softening.text + "\n";
    for (int k = 0; k < params.attractors.count; ++k) {
      const TypedValue x = typed_value(rng, 0.1, 2), y = typed_value(rng, 0.1, 2),
                       z = typed_value(rng, 0.01, 0.2), mass = typed_value(rng, 0.01, 1),
                       radius = typed_value(rng, 0.1, 1.5), speed = typed_value(rng, 0.1, 3),
                       phase = typed_value(rng, 0.01, 6);
      params.attractors.items[k] = {
          {-x.value, y.value, z.value}, mass.value, radius.value, speed.value, phase.value};
      toml += "[[attractors]]\ncenter = [-" + x.text + ", " + y.text + ", " + z.text +
              "]\nmass = " + mass.text + "\norbit_radius = " + radius.text +
              "\nangular_speed = " + speed.text + "\nphase = " + phase.text + "\n";
    }
    return std::pair{params, p.steps};
  });
  ASSERT_FALSE(typed.empty());
  std::ofstream(scene) << toml;
  for (const CpuTarget target : {CpuTarget::Scalar, best_cpu_target()}) {
    const auto got = run_fp64({"--backend", "cpu", "--cpu-target", std::string(to_string(target)), "--layout",
                               std::string(to_string(random_layout(rng))), "--scene", scene, "--load-state",
                               in, "--steps", std::to_string(p.steps)},
                              dir, {"in.npy", "typed.toml"}, start.size());
    EXPECT_LE(relative_error_to(got, typed), kTolerance) << to_string(target) << " n=" << n << "\n" << toml;
  }
}

// One stderr line, exit 2, and --save-state not written.
void expect_refused(const Args& args, const TempDir& dir, const std::vector<std::string>& needles) {
  Args all = args;
  all.insert(all.end(), {"--backend", "cpu", "--steps", "1", "--save-state", dir.file("never.npy")});
  const ProcessResult r = run_coalesce(all);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("coalesce: ", 0), 0u) << lines[0];
  for (const std::string& needle : needles) EXPECT_NE(lines[0].find(needle), std::string::npos) << lines[0];
  EXPECT_FALSE(std::ifstream(dir.file("never.npy")).good());
}

// 1e12 + 20000 rounds to the float 1e12 (999999995904), which a float range check accepted; as typed it is
// beyond the documented [0, 1e12], in a float64 state file in either precision, and in a scene file.
TEST(CliFp64Params, ValuesAreJudgedAsTyped) {
  TestRng rng;
  TempDir dir;
  // Above 1e12, and rounding to 1e12's float: within half its 65536 spacing of 999999995904.
  const double over = 1e12 + 1 + rng.uniform_int(0, 28000);
  std::size_t inexact = 0;
  std::vector<ParticleF64> records = random_particles_f64(rng, rng.uniform_int(1, 50), 0.5, inexact);
  const int row = rng.uniform_int(0, static_cast<int>(records.size()) - 1);
  records[static_cast<std::size_t>(row)].mass = over;
  const std::string state = dir.file("heavy.npy");
  std::ofstream(state, std::ios::binary) << npy_state_bytes(records, "<f8", false);
  const std::string over_text = std::to_string(static_cast<long long>(over));  // an integer: exact
  for (const char* precision : {"fp32", "fp64"})
    expect_refused(
        {"--load-state", state, "--precision", precision}, dir,
        {"--load-state " + state + ": mass " + over_text + " at particle " + std::to_string(row) + ";",
         "expected a number from 0 to 1e12"});
  const std::string scene = dir.file("heavy.toml");
  std::ofstream(scene) << "solver = \"attractors\"\n[[attractors]]\ncenter = [0, 0, 0]\nmass = " << over_text
                       << "\n";
  expect_refused(
      {"--scene", scene}, dir,
      {scene + ":4: 'attractors[1].mass' is " + over_text + ";", "expected a number from 0 to 1e12"});
  // 1000 + 1e-10 is the float 1000, inside [1e-9, 1000] as a float; as typed it is out of range.
  expect_refused({"--dt", "1000.0000001"}, dir, {"--dt 1000.0000001 is out of range", "1e-9 to 1000"});
}

}  // namespace
}  // namespace coalesce::testing
