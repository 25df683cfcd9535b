// .npy state files: round trip, NumPy-written headers, and each rejection with a one-line message (the
// other dtypes and orders: npy_precision_test.cpp; files of NumPy itself: npy_numpy_test.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/npy.h"
#include "tests/support/npy_writer.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

namespace fs = std::filesystem;

class Npy : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return m_dir.file(name); }

  std::string write_raw(const std::string& name, const std::string& dict, const std::string& data,
                        int major = 1) {
    testing::write_npy_file(path(name), dict, data, major);
    return path(name);
  }

  static std::string data_of(const std::vector<Particle>& ps) {
    return std::string(reinterpret_cast<const char*>(ps.data()), ps.size() * sizeof(Particle));
  }

  // Loading `file` fails with one line that names the file and contains `needle`.
  static void expect_rejects(const std::string& file, const std::string& needle) {
    try {
      load_npy(file);
      ADD_FAILURE() << "accepted " << file;
    } catch (const UsageError& e) {  // NpyError, or the input reader's refusal
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(file + ": ", 0), 0u) << what;
      EXPECT_NE(what.find(needle), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }

  testing::TestRng m_rng;
  testing::TempDir m_dir;
};

TEST_F(Npy, RoundTripIsBitwiseAndHeaderIsNumpyStyle) {
  const auto state = testing::random_particles(m_rng, m_rng.uniform_int(1, 5000));
  save_npy(check_output_path("test", path("s.npy")), state);
  EXPECT_TRUE(testing::bitwise_equal(load_npy(path("s.npy")), state));
  std::ifstream in(path("s.npy"), std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t header_len =
      static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  EXPECT_EQ((10 + header_len) % 64, 0u);
  const std::string dict =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(state.size()) + ", 7), }";
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  EXPECT_EQ(bytes.substr(10 + dict.size(), header_len - dict.size() - 1),
            std::string(header_len - dict.size() - 1, ' '));
  EXPECT_EQ(bytes[10 + header_len - 1], '\n');
  EXPECT_EQ(bytes.size(), 10 + header_len + state.size() * 28);
}

TEST_F(Npy, ReadsPythonWrittenHeadersInEveryVersionAndKeyOrder) {
  const auto state = testing::random_particles(m_rng, 3);
  const std::string dicts[] = {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 7), }",
                               "{'fortran_order': False, 'shape': (3, 7), 'descr': '<f4'}",
                               "{\"shape\": (3,7), \"descr\": \"<f4\", \"fortran_order\": False,}"};
  for (int major : {1, 2, 3}) {
    for (const std::string& dict : dicts) {
      const auto file = write_raw("h.npy", dict, data_of(state), major);
      EXPECT_TRUE(testing::bitwise_equal(load_npy(file), state)) << dict << " v" << major;
    }
  }
}

TEST_F(Npy, RejectsWrongDtypeNamingWhatWasFound) {
  const auto state = testing::random_particles(m_rng, 3);
  expect_rejects(
      write_raw("a.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (3, 7), }", data_of(state)),
      "dtype is '<i4'; expected float32 or float64");
  expect_rejects(write_raw("b.npy", "{'descr': '=f8', 'fortran_order': False, 'shape': (3, 7), }",
                           data_of(state) + data_of(state)),
                 "dtype is '=f8'; expected float32 or float64 in either byte order");
}

TEST_F(Npy, RejectsBadShapeSizeVersionMagicAndHeader) {
  const auto state = testing::random_particles(m_rng, 4);
  const std::string data = data_of(state);
  expect_rejects(write_raw("s1.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 6), }", data),
                 "shape is (4, 6); expected (N, 7)");
  expect_rejects(write_raw("s2.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (28,), }", data),
                 "shape is (28,)");
  expect_rejects(write_raw("s3.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 7), }", ""),
                 "shape is (0, 7)");
  expect_rejects(
      write_raw("t.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 7), }", data.substr(1)),
      "truncated or trailing data");
  expect_rejects(
      write_raw("x.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 7), }", data + "x"),
      "truncated or trailing data");
  expect_rejects(write_raw("v.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 7), }", data, 4),
                 "unsupported .npy version 4.0");
  expect_rejects(write_raw("k.npy", "{'descr': '<f4', 'shape': (4, 7), }", data), "missing key");
  expect_rejects(write_raw("g.npy", "{'descr': '<f4' 'fortran_order': False, 'shape': (4, 7)}", data),
                 "malformed header");
  std::ofstream(path("m.npy"), std::ios::binary) << "PK\x03\x04 this is a zip file";
  expect_rejects(path("m.npy"), "bad magic");
  expect_rejects(path("missing.npy"), "no such file");
  // A header length past the cap is refused before the header is read.
  std::ofstream(path("h.npy"), std::ios::binary)
      << std::string("\x93NUMPY\x02\x00\xff\xff\x01\x00", 12) << std::string(100, ' ');
  expect_rejects(path("h.npy"), "header is 131071 bytes; expected at most 65536");
}

// The size check comes before the data is read: a huge file whose header says 4 rows costs a header read.
TEST_F(Npy, SizeIsCheckedAgainstTheHeaderBeforeAnyDataIsRead) {
  const int rows = m_rng.uniform_int(1, 64);
  const std::string file = testing::npy_file_bytes(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", 7), }", "");
  const std::uint64_t claimed_size =
      (std::uint64_t{3} << 30) + static_cast<std::uint64_t>(m_rng.uniform_int(0, 999));
  std::uint64_t bytes_read = 0;
  try {
    decode_npy("big.npy", claimed_size, [&](std::uint64_t offset, void* destination, std::size_t bytes) {
      bytes_read += bytes;
      ASSERT_LE(offset + bytes, file.size()) << "read past the header";
      std::memcpy(destination, file.data() + offset, bytes);
    });
    ADD_FAILURE() << "accepted a " << claimed_size << "-byte file with " << rows << " rows";
  } catch (const NpyError& e) {
    EXPECT_NE(std::string(e.what()).find("expected " + std::to_string(file.size() + rows * 28u)),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(bytes_read, file.size()) << "only the magic, version, length and header are read";
}

TEST_F(Npy, RejectsMassesOutsideTheirRange) {
  auto state = testing::random_particles(m_rng, m_rng.uniform_int(2, 100));
  const int bad = m_rng.uniform_int(0, static_cast<int>(state.size()) - 1);
  state[static_cast<std::size_t>(bad)].mass = m_rng.uniform_int(0, 1) ? -1.0f : 3e38f;
  save_npy(check_output_path("test", path("mass.npy")), state);
  expect_rejects(path("mass.npy"),
                 "at particle " + std::to_string(bad) + "; expected a number from 0 to 1e12");
}

TEST_F(Npy, RejectsNonFiniteValuesNamingIndexAndField) {
  auto state = testing::random_particles(m_rng, m_rng.uniform_int(2, 100));
  const int bad = m_rng.uniform_int(0, static_cast<int>(state.size()) - 1);
  state[static_cast<std::size_t>(bad)].vy = std::nanf("");
  save_npy(check_output_path("test", path("nan.npy")), state);
  expect_rejects(path("nan.npy"), "at particle " + std::to_string(bad) + ", field vy");
  state[static_cast<std::size_t>(bad)].vy = 0.0f;
  state[static_cast<std::size_t>(bad)].mass = INFINITY;
  save_npy(check_output_path("test", path("inf.npy")), state);
  expect_rejects(path("inf.npy"), "at particle " + std::to_string(bad) + ", field mass");
}

}  // namespace
}  // namespace coalesce
