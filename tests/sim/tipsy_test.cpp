// Tipsy state files: round trips in both byte orders, files of gas, dark and star particles written here
// byte by byte, each header and .iord refusal in one line, and random bytes (files of NumPy itself:
// tipsy_numpy_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "sim/limits.h"
#include "sim/tipsy.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"
#include "tests/support/tipsy_writer.h"

namespace coalesce {
namespace {

namespace fs = std::filesystem;
using testing::TipsyContents;

constexpr TipsyByteOrder kOrders[] = {TipsyByteOrder::Standard, TipsyByteOrder::Native};

std::uint32_t bits_of(float v) {
  std::uint32_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// The float at `offset` of a file in `order`.
float float_in(const std::string& bytes, std::size_t offset, TipsyByteOrder order) {
  std::uint32_t b;
  std::memcpy(&b, bytes.data() + offset, sizeof b);
  if (order == TipsyByteOrder::Standard) b = __builtin_bswap32(b);
  float v;
  std::memcpy(&v, &b, sizeof v);
  return v;
}

// A row of `fields` random floats: mass first, positive; then positions, velocities and the rest.
std::vector<float> random_row(testing::TestRng& rng, int fields) {
  std::vector<float> row{rng.uniform(1e-4f, 1.0f)};
  for (int k = 1; k < fields; ++k) row.push_back(rng.uniform(-2.0f, 2.0f));
  return row;
}

class Tipsy : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return m_dir.file(name); }

  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path(name);
  }

  // Loading `file` fails with one line that starts with `starts` (the file, or its .iord; then ": " from the
  // Tipsy reader, " is" from the input reader) and contains `needle`.
  static void expect_rejects(const std::string& file, const std::string& needle,
                             const std::string& starts = "") {
    try {
      load_tipsy(file);
      ADD_FAILURE() << "accepted " << file;
    } catch (const UsageError& e) {  // TipsyError, or the input reader's refusal
      const std::string what = e.what();
      const std::string name = starts.empty() ? file : starts;
      EXPECT_TRUE(what.rfind(name + ": ", 0) == 0 || what.rfind(name + " is ", 0) == 0) << what;
      EXPECT_NE(what.find(needle), std::string::npos) << "wanted '" << needle << "' in: " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }

  std::vector<std::uint64_t> random_ids(std::size_t n) {
    std::uniform_int_distribution<std::uint64_t> any;
    std::vector<std::uint64_t> ids(n);
    for (auto& id : ids) id = any(m_rng.engine());
    return ids;
  }

  testing::TestRng m_rng;
  testing::TempDir m_dir;
};

TEST_F(Tipsy, RoundTripInBothByteOrdersIsBitwiseWithIdsAndTime) {
  const int n = m_rng.uniform_int(1, 3000);
  const auto state = testing::random_particles(m_rng, n);
  const auto ids = random_ids(state.size());
  std::vector<double> potential(state.size());
  for (double& phi : potential) phi = static_cast<double>(m_rng.uniform(-5.0f, 0.0f));
  StateExtras extras;
  extras.ids = &ids;
  extras.time = static_cast<double>(m_rng.uniform(0.0f, 100.0f)) + 1e-12;  // a double no float holds
  extras.softening = static_cast<double>(m_rng.uniform(1e-3f, 0.1f));
  extras.potential = &potential;
  for (const TipsyByteOrder order : kOrders) {
    SCOPED_TRACE(to_string(order));
    const std::string file = path("s.tipsy");
    save_tipsy(check_output_path("test", file), state, extras, order);
    const StateContents read = load_tipsy(file);
    EXPECT_EQ(read.name, file);
    EXPECT_EQ(read.format, order == TipsyByteOrder::Standard ? "tipsy" : "tipsy-native");
    EXPECT_FALSE(read.held_doubles);
    ASSERT_EQ(read.records.size(), state.size());
    for (std::size_t i = 0; i < state.size(); ++i) {
      const float* want = &state[i].x;
      const double* got = &read.records[i].x;
      for (int k = 0; k < kFieldsPerParticle; ++k)
        ASSERT_EQ(bits_of(static_cast<float>(got[k])), bits_of(want[k]))
            << "particle " << i << " field " << k;
    }
    EXPECT_EQ(read.ids, ids);
    EXPECT_TRUE(read.ids_from_file);
    EXPECT_EQ(read.time, extras.time);
    EXPECT_EQ(read.ignored, "phi (the potential)") << "one eps (the softening) is no per-particle eps";

    // The file itself: ndim 3 in its order, all dark matter, eps the softening and phi the potential.
    const std::string bytes = testing::read_file(file);
    ASSERT_EQ(bytes.size(), 32u + 36u * state.size());
    const std::size_t last = state.size() - 1;
    EXPECT_EQ(bytes[order == TipsyByteOrder::Standard ? 15 : 12], 3);
    EXPECT_EQ(float_in(bytes, 32 + 36 * last + 28, order), static_cast<float>(*extras.softening));
    EXPECT_EQ(float_in(bytes, 32 + 36 * last + 32, order), static_cast<float>(potential[last]));
  }
}

TEST_F(Tipsy, UnknownSofteningAndPotentialAreNanAndIdsDefaultToTheirIndex) {
  const auto state = testing::random_particles(m_rng, m_rng.uniform_int(1, 100));
  const std::string file = path("u.tipsy");
  save_tipsy(check_output_path("test", file), state, StateExtras{}, TipsyByteOrder::Native);
  const std::string bytes = testing::read_file(file);
  const std::size_t i = static_cast<std::size_t>(m_rng.uniform_int(0, static_cast<int>(state.size()) - 1));
  EXPECT_TRUE(std::isnan(float_in(bytes, 32 + 36 * i + 28, TipsyByteOrder::Native)));
  EXPECT_TRUE(std::isnan(float_in(bytes, 32 + 36 * i + 32, TipsyByteOrder::Native)));
  EXPECT_EQ(load_tipsy(file).ignored, "") << "unknown eps and phi say nothing to ignore";
  std::string iord = std::to_string(state.size()) + "\n";
  for (std::size_t k = 0; k < state.size(); ++k) iord += std::to_string(k) + "\n";
  EXPECT_EQ(testing::read_file(tipsy_ids_path(file)), iord) << "the count, then one ID a line";
  const StateContents read = load_tipsy(file);
  EXPECT_TRUE(read.ids_from_file);
  EXPECT_EQ(read.ids, ids_or_sequence(nullptr, state.size()));
}

TEST_F(Tipsy, Fp64StateIsRoundedToTheNearestFloat) {
  std::size_t inexact = 0;
  const auto doubles = testing::random_particles_f64(m_rng, m_rng.uniform_int(1, 2000), 0.5, inexact);
  for (const TipsyByteOrder order : kOrders) {
    const std::string file = path("d.tipsy");
    save_tipsy(check_output_path("test", file), doubles, StateExtras{}, order);
    const StateContents read = load_tipsy(file);
    ASSERT_EQ(read.records.size(), doubles.size());
    std::size_t changed = 0;
    for (std::size_t i = 0; i < doubles.size(); ++i)
      for (int k = 0; k < kFieldsPerParticle; ++k) {
        const double want = (&doubles[i].x)[k], got = (&read.records[i].x)[k];
        ASSERT_EQ(got, static_cast<double>(static_cast<float>(want))) << "particle " << i << " field " << k;
        changed += got != want;
      }
    EXPECT_EQ(changed, inexact);
    EXPECT_FALSE(read.held_doubles);
  }
}

TEST_F(Tipsy, Fp64BeyondTheFloatRangeIsRefusedAndNothingIsReplaced) {
  auto doubles = testing::random_particles_wide(m_rng, m_rng.uniform_int(2, 50));
  const std::string file = path("far.tipsy");
  save_tipsy(check_output_path("test", file), doubles, StateExtras{}, TipsyByteOrder::Standard);
  const std::string before = testing::read_file(file), ids_before = testing::read_file(tipsy_ids_path(file));
  doubles.pop_back();  // a different file, were it written
  const int bad = m_rng.uniform_int(0, static_cast<int>(doubles.size()) - 1);
  doubles[static_cast<std::size_t>(bad)].vz = -1e300;
  try {
    save_tipsy(check_output_path("test", file), doubles, StateExtras{}, TipsyByteOrder::Native);
    ADD_FAILURE() << "wrote -1e300 as a float";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("vz = -1e300 at particle " + std::to_string(bad)), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(testing::read_file(file), before);
  EXPECT_EQ(testing::read_file(tipsy_ids_path(file)), ids_before);
}

// When the .iord cannot be replaced, neither is the Tipsy file.
TEST_F(Tipsy, TheFileAndItsIdsAreReplacedTogetherOrNotAtAll) {
  const auto state = testing::random_particles(m_rng, m_rng.uniform_int(1, 50));
  const std::string file = path("t.tipsy");
  save_tipsy(check_output_path("test", file), state, StateExtras{}, TipsyByteOrder::Standard);
  const std::string before = testing::read_file(file);
  fs::remove(tipsy_ids_path(file));
  fs::create_directory(tipsy_ids_path(file));
  EXPECT_THROW(save_tipsy(check_output_path("test", file), testing::random_particles(m_rng, 3), StateExtras{},
                          TipsyByteOrder::Native),
               RuntimeFailure);
  EXPECT_EQ(testing::read_file(file), before);
  OutputFile out;
  out.flag = "--save-state";
  out.shown = "-";
  out.to_stdout = true;
  EXPECT_THROW(save_tipsy(out, state, StateExtras{}, TipsyByteOrder::Standard), TipsyError);
}

TEST_F(Tipsy, ReadsGasDarkAndStarParticlesNamingWhatIsIgnored) {
  for (const bool big : {true, false}) {
    TipsyContents c;
    c.big_endian = big;
    c.time = static_cast<double>(m_rng.uniform(0.0f, 10.0f));
    for (int i = m_rng.uniform_int(1, 60); i > 0; --i) c.gas.push_back(random_row(m_rng, 12));
    for (int i = m_rng.uniform_int(0, 60); i > 0; --i) c.dark.push_back(random_row(m_rng, 9));
    for (int i = m_rng.uniform_int(1, 60); i > 0; --i) c.star.push_back(random_row(m_rng, 11));
    const std::string file = write(big ? "mixed.std" : "mixed.bin", testing::tipsy_file_bytes(c));
    const StateContents read = load_tipsy(file);
    EXPECT_EQ(read.format, big ? "tipsy" : "tipsy-native");
    EXPECT_EQ(read.time, c.time);
    EXPECT_FALSE(read.ids_from_file);
    EXPECT_EQ(read.ids, ids_or_sequence(nullptr, read.records.size()));
    EXPECT_EQ(
        read.ignored,
        "gas fields rho, temp, hsmooth, metals of " + std::to_string(c.gas.size()) + " gas particle" +
            (c.gas.size() == 1 ? "" : "s") + "; star fields metals, tform of " +
            std::to_string(c.star.size()) + " star particle" + (c.star.size() == 1 ? "" : "s") +
            (c.dark.size() + c.star.size() > 1 ? "; per-particle eps (a run has one softening: --softening)"
                                               : "") +
            "; phi (the potential); which particles were gas, dark or star");
    std::size_t i = 0;
    for (const auto* family : {&c.gas, &c.dark, &c.star})
      for (const std::vector<float>& row : *family) {
        const ParticleF64& r = read.records.at(i++);
        const double want[] = {row[1], row[2], row[3], row[4], row[5], row[6], row[0]};
        for (int k = 0; k < kFieldsPerParticle; ++k) ASSERT_EQ((&r.x)[k], want[k]) << "particle " << i - 1;
      }
    EXPECT_EQ(i, read.records.size());
  }
}

TEST_F(Tipsy, EveryHeaderAndSizeFailureNamesTheProblem) {
  TipsyContents good;
  good.big_endian = m_rng.uniform_int(0, 1) == 1;
  for (int i = m_rng.uniform_int(1, 20); i > 0; --i) good.dark.push_back(random_row(m_rng, 9));
  const auto dark = static_cast<std::int32_t>(good.dark.size());
  const std::string order = good.big_endian ? "(big-endian header)" : "(little-endian header)";
  const auto with = [&](auto change) {
    TipsyContents c = good;
    change(c);
    return testing::tipsy_file_bytes(c);
  };
  const std::string bytes = testing::tipsy_file_bytes(good);
  struct Case {
    std::string name, bytes, needle;
  };
  const Case cases[] = {
      {"empty", "", "file is 0 bytes; expected at least the 32-byte Tipsy header"},
      {"short", bytes.substr(0, 31), "file is 31 bytes; expected at least the 32-byte Tipsy header"},
      {"ndim2", with([](TipsyContents& c) { c.ndim = 2; }), "not a Tipsy file: ndim is "},
      {"negative",
       with([](TipsyContents& c) { c.nstar = -4, c.nbodies = static_cast<std::int32_t>(c.dark.size()) - 4; }),
       "nstar -4 " + order + "; expected counts >= 0"},
      {"sum", with([](TipsyContents& c) { c.nbodies = static_cast<std::int32_t>(c.dark.size()) + 1; }),
       "header says nbodies " + std::to_string(dark + 1) + " but nsph 0, ndark " + std::to_string(dark) +
           ", nstar 0 add up to " + std::to_string(dark)},
      {"zero", with([](TipsyContents& c) { c.dark.clear(); }),
       "header says nbodies 0 " + order + "; expected an integer from 1"},
      {"many", with([](TipsyContents& c) { c.nbodies = c.ndark = kMaxParticles + 1; }),
       "nbodies " + std::to_string(kMaxParticles + 1) + " " + order + "; expected an integer from 1 to " +
           std::to_string(kMaxParticles)},
      {"time", with([](TipsyContents& c) { c.time = std::numeric_limits<double>::infinity(); }),
       "header time is inf " + order + "; expected a finite time"},
      {"truncated", bytes.substr(0, bytes.size() - 1),
       "file is " + std::to_string(bytes.size() - 1) + " bytes; expected " + std::to_string(bytes.size()) +
           " for nsph 0, ndark " + std::to_string(dark) +
           ", nstar 0 (32 + 48 nsph + 36 ndark + 44 nstar): "
           "the file is truncated"},
      {"trailing", bytes + "abc", "; expected " + std::to_string(bytes.size()) + " for nsph 0"},
      {"trailing2", bytes + "abc", "the file has 3 trailing bytes"},
      {"gas-as-dark",
       with([](TipsyContents& c) { c.nsph = static_cast<std::int32_t>(c.dark.size()), c.ndark = 0; }),
       "the file is truncated"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    expect_rejects(write(c.name + ".tipsy", c.bytes), c.needle);
  }
}

// The size check comes before the particles are read: a huge file whose header says a few costs 32 bytes.
TEST_F(Tipsy, SizeIsCheckedAgainstTheHeaderBeforeAnyParticleIsRead) {
  TipsyContents c;
  c.big_endian = m_rng.uniform_int(0, 1) == 1;
  c.nbodies = c.ndark = m_rng.uniform_int(1, 64);
  const std::string header = testing::tipsy_file_bytes(c);
  ASSERT_EQ(header.size(), 32u);
  const std::uint64_t claimed =
      (std::uint64_t{3} << 30) + static_cast<std::uint64_t>(m_rng.uniform_int(0, 999));
  std::uint64_t bytes_read = 0;
  try {
    decode_tipsy("big.tipsy", claimed, [&](std::uint64_t offset, void* destination, std::size_t bytes) {
      bytes_read += bytes;
      ASSERT_LE(offset + bytes, header.size()) << "read past the header";
      std::memcpy(destination, header.data() + offset, bytes);
    });
    ADD_FAILURE() << "accepted a " << claimed << "-byte file of " << *c.ndark << " particles";
  } catch (const TipsyError& e) {
    EXPECT_NE(std::string(e.what()).find("expected " + std::to_string(32 + 36 * *c.ndark)), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(bytes_read, 32u) << "only the header is read";
}

TEST_F(Tipsy, RejectsNonFiniteValuesAndBadMassesNamingTheParticle) {
  TipsyContents c;
  c.big_endian = m_rng.uniform_int(0, 1) == 1;
  for (int i = m_rng.uniform_int(1, 20); i > 0; --i) c.gas.push_back(random_row(m_rng, 12));
  for (int i = m_rng.uniform_int(1, 20); i > 0; --i) c.star.push_back(random_row(m_rng, 11));
  const std::size_t star =
      static_cast<std::size_t>(m_rng.uniform_int(0, static_cast<int>(c.star.size()) - 1));
  TipsyContents nan = c;
  nan.star[star][5] = std::nanf("");  // vy
  expect_rejects(write("nan.tipsy", testing::tipsy_file_bytes(nan)),
                 "non-finite value (nan) at particle " + std::to_string(c.gas.size() + star) + ", field vy");
  TipsyContents mass = c;
  mass.gas[0][0] = -1.0f;
  expect_rejects(write("mass.tipsy", testing::tipsy_file_bytes(mass)),
                 "mass -1 at particle 0; expected a number from 0 to 1e12");
  // What is ignored is not checked: a NaN temperature or phi is no reason to refuse the state.
  TipsyContents ignored = c;
  ignored.gas[0][8] = std::nanf("");
  ignored.star[star][10] = INFINITY;
  EXPECT_NO_THROW(load_tipsy(write("ignored.tipsy", testing::tipsy_file_bytes(ignored))));
}

TEST_F(Tipsy, IdFileMismatchesAreRefusedNamingTheIdFile) {
  const auto state = testing::random_particles(m_rng, m_rng.uniform_int(2, 50));
  const std::size_t n = state.size();
  const std::string file = path("i.tipsy"), iord = tipsy_ids_path(file);
  save_tipsy(check_output_path("test", file), state, StateExtras{}, TipsyByteOrder::Standard);
  const auto ids_file = [&](const std::string& text) { write("i.tipsy.iord", text); };
  std::string lines;
  for (std::size_t k = 0; k < n; ++k) lines += std::to_string(k + 100) + "\n";

  ids_file(std::to_string(n + 1) + "\n" + lines);
  expect_rejects(file, "first line says " + std::to_string(n + 1) + " IDs; expected " + std::to_string(n),
                 iord);
  ids_file(std::to_string(n) + "\n" + lines.substr(0, lines.rfind('\n', lines.size() - 2) + 1));
  expect_rejects(
      file, "holds " + std::to_string(n - 1) + " IDs after its count line; expected " + std::to_string(n),
      iord);
  ids_file(std::to_string(n) + "\n" + lines + "7\n");
  expect_rejects(file, "holds more than " + std::to_string(n) + " IDs", iord);
  ids_file(std::to_string(n) + "\n-1\n" + lines.substr(lines.find('\n') + 1));
  expect_rejects(file, "'-1' at line 2 is not an ID", iord);
  ids_file(std::to_string(n) + "\n" + lines.substr(0, lines.size() - 1) + "x\n");
  expect_rejects(file, "at line " + std::to_string(n + 1) + " is not an ID", iord);
  ids_file(std::to_string(n) + "\n18446744073709551616\n" + lines.substr(lines.find('\n') + 1));
  expect_rejects(file, "'18446744073709551616' at line 2 is not an ID", iord);
  ids_file(std::string("\x05\0\0\0", 4) + std::string(4 * n, '\0'));  // pynbody's binary form
  expect_rejects(file, "is not a count; expected an ASCII Tipsy array", iord);
  ids_file("");
  expect_rejects(file, "is empty; expected the count " + std::to_string(n), iord);
  ids_file(std::to_string(n) + "\n" + std::string(n * 64, ' ') + lines);
  expect_rejects(file, "bytes; expected at most", iord);
  fs::remove(iord);
  fs::create_directory(iord);
  expect_rejects(file, "is a directory", iord);
  fs::remove(iord);

  // Windows line ends and spaces are whitespace as NumPy's reader takes them; the largest ID is kept.
  ids_file(std::to_string(n) + "\r\n18446744073709551615\r\n" + lines.substr(lines.find('\n') + 1));
  const StateContents read = load_tipsy(file);
  EXPECT_TRUE(read.ids_from_file);
  EXPECT_EQ(read.ids.front(), UINT64_MAX);
  EXPECT_EQ(read.ids.back(), n - 1 + 100);
}

// Any N random bytes, and random bytes after a plausible header, end in a state or a TipsyError naming
// the file: never a crash, another exception or a read outside the file.
TEST_F(Tipsy, RandomBytesNeverCrash) {
  std::uniform_int_distribution<int> byte(0, 255);
  int accepted = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string bytes(static_cast<std::size_t>(m_rng.uniform_int(0, 600)), '\0');
    for (char& b : bytes) b = static_cast<char>(byte(m_rng.engine()));
    if (round % 2 &&
        bytes.size() >= 32) {  // half of them with ndim 3 and small counts, to get past the header
      TipsyContents c;
      c.big_endian = round % 4 == 1;
      c.nsph = m_rng.uniform_int(0, 3), c.ndark = m_rng.uniform_int(0, 3), c.nstar = m_rng.uniform_int(0, 3);
      c.nbodies = *c.nsph + *c.ndark + *c.nstar;
      const std::string header = testing::tipsy_file_bytes(c);
      bytes.replace(8, 24, header, 8, 24);
      if (round % 3 == 0)  // and a third of those the size the counts ask for, so the particles are read
        bytes.resize(32 + 48 * static_cast<std::size_t>(*c.nsph) + 36 * static_cast<std::size_t>(*c.ndark) +
                         44 * static_cast<std::size_t>(*c.nstar),
                     '\x01');
    }
    try {
      const StateContents state =
          decode_tipsy("r.tipsy", bytes.size(), [&](std::uint64_t o, void* d, std::size_t n) {
            if (o > bytes.size() || n > bytes.size() - o) throw std::logic_error("read outside the file");
            std::memcpy(d, bytes.data() + o, n);
          });
      ++accepted;
      EXPECT_FALSE(state.records.empty());
      for (const ParticleF64& p : state.records) EXPECT_TRUE(kMassRange.contains(p.mass));
    } catch (const TipsyError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("r.tipsy: ", 0), 0u) << e.what();
    }
  }
  EXPECT_GT(accepted, 0) << "no input got past the checks to the particles";
}

}  // namespace
}  // namespace coalesce
