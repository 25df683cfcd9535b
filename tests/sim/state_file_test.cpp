// sim/state_file.h: which format a path means, and a state through every writer and reader in a chain,
// npy -> Tipsy -> HDF5 -> npy, bit for bit in fp32 and in fp64 where the formats hold doubles (issue 33).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "sim/errors.h"
#include "sim/output_file.h"
#include "sim/state_file.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

OutputFile out(const std::string& path) {
  return check_output_path("test", path);
}

template <class Real>
bool same_bits(const std::vector<ParticleRecord<Real>>& a, const std::vector<ParticleRecord<Real>>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(a[0])) == 0;
}

TEST(StateFile, ExtensionsNameTheirFormatsAndOthersNone) {
  EXPECT_EQ(format_of_extension("a/b.npy"), StateFormat::Npy);
  EXPECT_EQ(format_of_extension("b.TIPSY"), StateFormat::Tipsy);
  EXPECT_EQ(format_of_extension("b.hdf5"), StateFormat::GadgetHdf5);
  EXPECT_EQ(format_of_extension("b.h5"), StateFormat::GadgetHdf5);
  for (const char* none : {"b", "b.std", "dir.npy/b", ".npy", "b.npy.bak"})
    EXPECT_FALSE(format_of_extension(none)) << none;
  for (std::string_view name : {"npy", "tipsy", "tipsy-native", "hdf5"})
    EXPECT_EQ(format_name(*parse_state_format(name)), name);
  EXPECT_FALSE(parse_state_format("gadget"));
}

TEST(StateFile, OutputFormatTakesTheExtensionAndRefusesAContradiction) {
  EXPECT_EQ(output_format("--save-state", "s.npy", std::nullopt), StateFormat::Npy);
  EXPECT_EQ(output_format("--save-state", "s", std::nullopt), StateFormat::Npy);
  EXPECT_EQ(output_format("--save-state", "s.bin", StateFormat::Tipsy), StateFormat::Tipsy);
  EXPECT_EQ(output_format("--save-state", "s.tipsy", StateFormat::TipsyNative), StateFormat::TipsyNative);
  try {
    output_format("--save-state", "s.h5", StateFormat::Npy);
    ADD_FAILURE() << "a .h5 written as npy";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--save-state s.h5 names a hdf5 file, but --format says npy"),
              std::string::npos)
        << e.what();
  }
}

TEST(StateFile, InputFormatReadsTheSignatureWhenTheNameSaysNothing) {
  TestRng rng;
  TempDir dir;
  const std::vector<Particle> records = random_particles(rng, rng.uniform_int(1, 50));
  const std::string npy = dir.file("state.bin"), hdf5 = dir.file("snap_000"), other = dir.file("tipsy.dat");
  save_state_file(out(npy), StateFormat::Npy, records, {});
  save_state_file(out(hdf5), StateFormat::GadgetHdf5, records, {});
  save_state_file(out(other), StateFormat::Tipsy, records, {});
  EXPECT_EQ(input_format("--load-state", npy, std::nullopt), StateFormat::Npy);
  EXPECT_EQ(input_format("--load-state", hdf5, std::nullopt), StateFormat::GadgetHdf5);
  EXPECT_EQ(input_format("--load-state", other, StateFormat::Tipsy), StateFormat::Tipsy);
  try {
    input_format("--load-state", other, std::nullopt);
    ADD_FAILURE() << "Tipsy without a name or --format: nothing in it says Tipsy";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot tell the format"), std::string::npos) << e.what();
  }
}

TEST(StateFile, Fp32ChainNpyTipsyHdf5NpyIsBitwise) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(1, 2000);
  const std::vector<Particle> start = random_particles(rng, n);
  std::vector<std::uint64_t> ids(start.size());
  for (std::uint64_t& id : ids) id = rng.engine()();
  StateExtras extras;
  extras.ids = &ids;
  extras.time = rng.uniform(0, 100);
  std::vector<Particle> records = start;
  std::vector<std::uint64_t> carried = ids;
  const std::pair<StateFormat, std::string> chain[] = {{StateFormat::Npy, "a.npy"},
                                                       {StateFormat::Tipsy, "b.tipsy"},
                                                       {StateFormat::TipsyNative, "c.tipsy"},
                                                       {StateFormat::GadgetHdf5, "d.hdf5"},
                                                       {StateFormat::Npy, "e.npy"}};
  for (const auto& [format, name] : chain) {
    SCOPED_TRACE(name);
    extras.ids = &carried;
    save_state_file(out(dir.file(name)), format, records, extras);
    const LoadedState loaded = load_state_file(dir.file(name), format, Precision::Fp32);
    EXPECT_EQ(loaded.notice, "") << "a float state needs no conversion";
    records = records_for<Precision::Fp32>(loaded.contents);
    if (format != StateFormat::Npy) {  // .npy holds no IDs: they come back numbered
      EXPECT_EQ(loaded.contents.ids, ids);
      EXPECT_EQ(loaded.contents.time, static_cast<double>(extras.time));
    }
  }
  EXPECT_TRUE(same_bits(records, start)) << "n=" << n;
}

TEST(StateFile, Fp64ChainNpyHdf5NpyIsBitwiseAndTipsyRoundsToFloat) {
  TestRng rng;
  TempDir dir;
  const std::vector<ParticleF64> start = random_particles_wide(rng, rng.uniform_int(1, 2000));
  save_state_file(out(dir.file("a.npy")), StateFormat::Npy, start, {});
  LoadedState a = load_state_file(dir.file("a.npy"), StateFormat::Npy, Precision::Fp64);
  save_state_file(out(dir.file("b.h5")), StateFormat::GadgetHdf5, records_for<Precision::Fp64>(a.contents),
                  {});
  LoadedState b = load_state_file(dir.file("b.h5"), StateFormat::GadgetHdf5, Precision::Fp64);
  EXPECT_TRUE(b.contents.held_doubles);
  EXPECT_TRUE(same_bits(records_for<Precision::Fp64>(b.contents), start));

  save_state_file(out(dir.file("c.tipsy")), StateFormat::Tipsy, start, {});
  const LoadedState c = load_state_file(dir.file("c.tipsy"), StateFormat::Tipsy, Precision::Fp64);
  EXPECT_FALSE(c.contents.held_doubles);
  std::vector<ParticleF64> rounded(start.size());
  for (std::size_t i = 0; i < start.size(); ++i)
    rounded[i] = record_cast<double>(record_cast<float>(start[i]));
  EXPECT_TRUE(same_bits(records_for<Precision::Fp64>(c.contents), rounded))
      << "Tipsy holds each value's float";
  EXPECT_NE(c.notice.find("float32 widened to float64 for fp64 (exact)"), std::string::npos) << c.notice;
}

}  // namespace
}  // namespace coalesce::testing
