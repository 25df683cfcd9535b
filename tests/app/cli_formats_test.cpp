// State files in every format through the real executable (issue 33): a state goes npy -> Tipsy -> HDF5 ->
// npy by --load-state and --save-state with zero steps, bit for bit in fp32 (and in fp64 where the formats
// hold doubles); particle IDs survive a run; a format that cannot hold fp64 says it rounded.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/output_file.h"
#include "sim/scene.h"
#include "sim/state_file.h"
#include "tests/app/run_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

using Args = std::vector<std::string>;

void expect_run(const Args& args) {
  const ProcessResult r = run_coalesce(args);
  ASSERT_EQ(r.exit_code, 0) << "stderr: " << r.err << "stdout: " << r.out;
}

TEST(CliFormats, AStateSurvivesNpyTipsyHdf5NpyBitwiseInFp32) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1, 300);
  const std::vector<char> payload = bytes_of(random_particles(rng, n));
  const std::string npy = dir.file("a.npy"), tipsy = dir.file("b.tipsy"), hdf5 = dir.file("c.h5"),
                    back = dir.file("d.npy");
  write_npy(npy, "<f4", "(" + std::to_string(n) + ", 7)", payload);
  const std::string layout(to_string(random_layout(rng)));
  const std::string tipsy_format = rng.uniform_int(0, 1) ? "tipsy" : "tipsy-native";
  expect_run({"--backend", "cpu", "--layout", layout, "--load-state", npy, "--steps", "0", "--save-state",
              tipsy, "--format", tipsy_format});
  expect_run(
      {"--backend", "cpu", "--layout", layout, "--load-state", tipsy, "--steps", "0", "--save-state", hdf5});
  expect_run(
      {"--backend", "cpu", "--layout", layout, "--load-state", hdf5, "--steps", "0", "--save-state", back});
  EXPECT_TRUE(npy_payload(back) == payload) << "n=" << n << ", layout " << layout << ", " << tipsy_format;
}

TEST(CliFormats, AnFp64StateSurvivesNpyHdf5NpyBitwise) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1, 300);
  const std::vector<ParticleF64> records = random_particles_wide(rng, n);  // low bits no float holds
  const std::string npy = dir.file("a.npy"), hdf5 = dir.file("b.hdf5"), back = dir.file("c.npy");
  {
    std::ofstream file(npy, std::ios::binary);
    file << npy_state_bytes(records, "<f8", false);
  }
  expect_run(
      {"--backend", "cpu", "--precision", "fp64", "--load-state", npy, "--steps", "0", "--save-state", hdf5});
  expect_run({"--backend", "cpu", "--precision", "fp64", "--load-state", hdf5, "--steps", "0", "--save-state",
              back});
  EXPECT_EQ(read_file(back), read_file(npy)) << "n=" << n;
}

TEST(CliFormats, ParticleIdsSurviveARunInEveryFormat) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(8, 200);
  std::vector<Particle> records = random_particles(rng, n);
  std::vector<std::uint64_t> ids(records.size());
  for (std::uint64_t& id : ids) id = rng.engine()() % 100000000;  // as a file's own numbering would be
  const StateFormat formats[] = {StateFormat::Tipsy, StateFormat::TipsyNative, StateFormat::GadgetHdf5};
  const StateFormat from = formats[rng.uniform_int(0, 2)], to = formats[rng.uniform_int(0, 2)];
  const std::string in = dir.file("in" + std::string(format_extension(from)));
  const std::string out = dir.file("out" + std::string(format_extension(to)));
  StateExtras extras;
  extras.ids = &ids;
  save_state_file(check_output_path("test", in), from, records, extras);
  for (const std::string& companion : companion_paths(in, from))
    ASSERT_TRUE(std::filesystem::exists(companion));
  Args args = {"--backend",    "cpu", "--load-state", in, "--steps", std::to_string(rng.uniform_int(1, 5)),
               "--save-state", out};
  if (to == StateFormat::TipsyNative) args.insert(args.end(), {"--format", "tipsy-native"});
  expect_run(args);
  const LoadedState loaded = load_state_file(out, to, Precision::Fp32);
  EXPECT_TRUE(loaded.contents.ids_from_file);
  EXPECT_EQ(loaded.contents.ids, ids) << format_name(from) << " -> " << format_name(to) << ", n=" << n;
}

TEST(CliFormats, AnFp64RunSavedAsTipsySaysItRounded) {
  TempDir dir;
  const std::string out = dir.file("s.tipsy");
  const ProcessResult r = run_coalesce({"--backend", "cpu", "--precision", "fp64", "--scene", "plummer",
                                        "--particles", "32", "--steps", "1", "--save-state", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("the fp64 state was rounded to float32, as tipsy stores floats"), std::string::npos)
      << r.out;
}

// The scene's physical units go into an HDF5 snapshot (the format with a place for them) and come back.
TEST(CliFormats, TheScenesUnitsAreRecordedInHdf5) {
  TestRng rng;
  TempDir dir;
  const std::string preset = rng.uniform_int(0, 1) ? "galaxies" : "plummer";
  const std::string out = dir.file("s.hdf5");
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--scene", preset, "--solver", "all-pairs", "--particles",
                    std::to_string(rng.uniform_int(16, 256)), "--steps", "1", "--save-state", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const LoadedState loaded = load_state_file(out, StateFormat::GadgetHdf5, Precision::Fp32);
  const Scene scene = preset_scene(preset);
  ASSERT_TRUE(scene.units) << preset << " states its units";
  ASSERT_TRUE(loaded.contents.units) << preset;
  EXPECT_DOUBLE_EQ(loaded.contents.units->length_in_cm, scene.units->length_in_cm);
  EXPECT_DOUBLE_EQ(loaded.contents.units->mass_in_g, scene.units->mass_in_g);
  EXPECT_EQ(loaded.contents.converted, "") << "our own velocity unit is G = 1's";
}

}  // namespace
}  // namespace coalesce::testing
