// .npy states in every dtype, byte order and memory order: what is read, what each precision gets, the
// notice of what was converted, the '<f8' writer, and the refusals that came with float64.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "sim/limits.h"
#include "sim/npy.h"
#include "tests/support/npy_writer.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

const char* const kDescrs[] = {"<f4", ">f4", "<f8", ">f8"};

class NpyPrecision : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(m_dir.file(name), std::ios::binary) << bytes;
    return m_dir.file(name);
  }

  // Random records as a file of `descr` holds them: floats for 'f4', float64 values a float cannot
  // hold for about half of the values of 'f8'. `inexact` receives how many values those are.
  std::vector<ParticleF64> values_for(const std::string& descr, int n, std::size_t& inexact) {
    return testing::random_particles_f64(m_rng, n, descr[2] == '8' ? 0.5 : 0.0, inexact);
  }

  testing::TestRng m_rng;
  testing::TempDir m_dir;
};

// The floats of `records`, each rounded to nearest, and how many changed.
std::vector<Particle> rounded(const std::vector<ParticleF64>& records, std::size_t& changed) {
  std::vector<Particle> out(records.size());
  changed = 0;
  for (std::size_t i = 0; i < records.size(); ++i)
    for (int k = 0; k < kFieldsPerParticle; ++k) {
      const double v = (&records[i].x)[k];
      (&out[i].x)[k] = static_cast<float>(v);
      changed += static_cast<double>(static_cast<float>(v)) != v;
    }
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Loading, converting and noticing, for one file of every dtype x byte order x memory order.
TEST_F(NpyPrecision, EveryDtypeByteOrderAndMemoryOrderLoadsExactly) {
  for (const std::string descr : kDescrs) {
    for (const bool fortran : {false, true}) {
      SCOPED_TRACE(descr + (fortran ? " Fortran order" : " C order"));
      std::size_t inexact = 0;
      const auto records = values_for(descr, m_rng.uniform_int(2, 300), inexact);
      const int major = m_rng.uniform_int(1, 3);
      const std::string file = write("s.npy", testing::npy_state_bytes(records, descr, fortran, major));
      const NpyState state = load_npy_state(file);
      EXPECT_EQ(state.source.descr(), descr);
      EXPECT_EQ(state.source.scalar, descr[2] == '8' ? NpyScalar::Float64 : NpyScalar::Float32);
      EXPECT_EQ(state.source.byte_swapped, descr[0] == '>');
      EXPECT_EQ(state.source.fortran_order, fortran);
      EXPECT_TRUE(testing::bitwise_equal(state.records, records));
      EXPECT_EQ(state.inexact_in_fp32, inexact);
      EXPECT_TRUE(testing::bitwise_equal(npy_records<Precision::Fp64>(state), records));
      std::size_t changed = 0;
      const auto floats = rounded(records, changed);
      EXPECT_EQ(changed, inexact) << "the test's own count";
      EXPECT_TRUE(testing::bitwise_equal(npy_records<Precision::Fp32>(state), floats));
      EXPECT_TRUE(testing::bitwise_equal(load_npy(file), floats));

      for (const Precision target : kAllPrecisions) {
        const std::string notice = npy_notice(state, target);
        SCOPED_TRACE(std::string(to_string(target)) + ": " + notice);
        const bool widen = descr[2] == '4' && target == Precision::Fp64;
        const bool narrow = descr[2] == '8' && target == Precision::Fp32;
        const bool converted = descr[0] == '>' || fortran || widen || narrow;
        EXPECT_EQ(notice.empty(), !converted);
        if (!converted) continue;
        EXPECT_EQ(notice.rfind(file + ": '" + descr + "'", 0), 0u);
        EXPECT_FALSE(contains(notice, "\n"));
        EXPECT_EQ(contains(notice, "byte order swapped (big-endian)"), descr[0] == '>');
        EXPECT_EQ(contains(notice, "columns reordered to rows"), fortran);
        EXPECT_EQ(contains(notice, "float32 widened to float64 for fp64 (exact)"), widen);
        EXPECT_EQ(contains(notice, "float64 rounded to float32 for fp32 (" + std::to_string(inexact) + " of " +
                                       std::to_string(records.size() * 7) + " values changed)"),
                  narrow);
      }
    }
  }
}

// Float32 files keep every bit in both precisions: subnormals, -0 and the extremes included (positions up to
// the edge of fp32's range of positions, sim/limits.h).
TEST_F(NpyPrecision, Float32ValuesStayBitwise) {
  std::vector<ParticleF64> records(static_cast<std::size_t>(m_rng.uniform_int(1, 500)));
  std::vector<Particle> floats(records.size());
  std::uniform_int_distribution<std::uint32_t> any_bits;
  for (std::size_t i = 0; i < records.size(); ++i)
    for (int k = 0; k < kFieldsPerParticle; ++k) {
      float f;
      do {
        std::uint32_t bits = any_bits(m_rng.engine());
        if (k == 6) bits &= 0x7fffffffu;  // masses are not negative
        std::memcpy(&f, &bits, 4);
      } while (!std::isfinite(f) || (k == 6 && f > 1e12f) || (k < 3 && !kPositionRangeFp32.contains(f)));
      (&floats[i].x)[k] = f;
      (&records[i].x)[k] = f;
    }
  const std::string descr = kDescrs[m_rng.uniform_int(0, 1)];
  const bool fortran = m_rng.uniform_int(0, 1);
  SCOPED_TRACE(descr + (fortran ? " Fortran order" : " C order"));
  const NpyState state = load_npy_state(write("f.npy", testing::npy_state_bytes(records, descr, fortran)));
  EXPECT_EQ(state.inexact_in_fp32, 0u);
  EXPECT_TRUE(testing::bitwise_equal(npy_records<Precision::Fp32>(state), floats));
  EXPECT_TRUE(testing::bitwise_equal(npy_records<Precision::Fp64>(state), records));
}

// The count in the notice is of values that rounding changed, exactly: k chosen at random, at random places.
TEST_F(NpyPrecision, Float64RoundingCountsExactlyTheValuesThatChanged) {
  std::size_t none = 0;
  auto records = testing::random_particles_f64(m_rng, m_rng.uniform_int(1, 400), 0.0, none);
  const std::size_t values = records.size() * kFieldsPerParticle;
  const std::size_t k = static_cast<std::size_t>(m_rng.uniform_int(0, static_cast<int>(values)));
  std::vector<std::size_t> order(values);
  for (std::size_t i = 0; i < values; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), m_rng.engine());
  for (std::size_t i = 0; i < k; ++i) {
    double& v = (&records[order[i] / 7].x)[order[i] % 7];
    v = std::nextafter(v, v * 2);  // one double ulp away from a float: never a float
  }
  const std::string file = write("k.npy", testing::npy_state_bytes(records, "<f8", false));
  const NpyState state = load_npy_state(file);
  EXPECT_EQ(state.inexact_in_fp32, k);
  EXPECT_EQ(npy_notice(state, Precision::Fp32),
            file + ": '<f8' converted on load: float64 rounded to float32 for fp32 (" + std::to_string(k) + " of " +
                std::to_string(values) + " values changed)");
  EXPECT_EQ(npy_notice(state, Precision::Fp64), "") << "a '<f8' C-order file is fp64's own format";
  const auto floats = npy_records<Precision::Fp32>(state);
  std::size_t changed = 0;
  for (std::size_t e = 0; e < values; ++e)
    changed += static_cast<double>((&floats[e / 7].x)[e % 7]) != (&records[e / 7].x)[e % 7];
  EXPECT_EQ(changed, k);
}

TEST_F(NpyPrecision, F8WriterWritesNumpysHeaderAndReadsBackBitwise) {
  std::size_t inexact = 0;
  const auto records = testing::random_particles_f64(m_rng, m_rng.uniform_int(1, 3000), 0.5, inexact);
  const std::string file = m_dir.file("d.npy");
  save_npy(check_output_path("test", file), records);
  std::ifstream in(file, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<unsigned char>(bytes[9]) << 8);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ((10 + header_len) % 64, 0u);
  const std::string dict =
      "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(records.size()) + ", 7), }";
  EXPECT_EQ(bytes.substr(10, dict.size()), dict);
  EXPECT_EQ(bytes[10 + header_len - 1], '\n');
  EXPECT_EQ(bytes.size(), 10 + header_len + records.size() * 56);
  const NpyState state = load_npy_state(file);
  EXPECT_TRUE(testing::bitwise_equal(state.records, records));
  EXPECT_EQ(state.inexact_in_fp32, inexact);
  EXPECT_EQ(npy_notice(state, Precision::Fp64), "");
}

// A velocity beyond the float range is fine in fp64 and refused in fp32, naming the value's place; a value
// that rounds down to FLT_MAX is not beyond it. (Positions have a range of their own: below.)
TEST_F(NpyPrecision, Fp32RefusesFloat64ValuesBeyondTheFloatRange) {
  std::size_t inexact = 0;
  auto records = testing::random_particles_f64(m_rng, m_rng.uniform_int(2, 100), 0.5, inexact);
  const int row = m_rng.uniform_int(0, static_cast<int>(records.size()) - 1), field = m_rng.uniform_int(3, 5);
  const char* names[] = {"x", "y", "z", "vx", "vy", "vz"};
  const double sign = m_rng.uniform_int(0, 1) ? 1.0 : -1.0;
  (&records[static_cast<std::size_t>(row)].x)[field] = sign * std::ldexp(1.0, m_rng.uniform_int(129, 1000));
  const std::string file = write("big.npy", testing::npy_state_bytes(records, kDescrs[m_rng.uniform_int(2, 3)],
                                                                     m_rng.uniform_int(0, 1)));
  const NpyState state = load_npy_state(file);
  EXPECT_TRUE(testing::bitwise_equal(npy_records<Precision::Fp64>(state), records));
  try {
    npy_records<Precision::Fp32>(state);
    ADD_FAILURE() << "fp32 accepted a value beyond the float range";
  } catch (const NpyError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(file + ": value ", 0), 0u) << what;
    EXPECT_TRUE(contains(what, "at particle " + std::to_string(row) + ", field " + names[field] +
                                   " is beyond the float32 range"))
        << what;
    EXPECT_TRUE(contains(what, "run in fp64 or rescale the state")) << what;
  }
  const double just_above = static_cast<double>(FLT_MAX) + std::ldexp(1.0, 102);  // < half a float ulp
  (&records[static_cast<std::size_t>(row)].x)[field] = sign * just_above;
  const NpyState near = load_npy_state(write("near.npy", testing::npy_state_bytes(records, "<f8", false)));
  EXPECT_EQ((&npy_records<Precision::Fp32>(near)[static_cast<std::size_t>(row)].x)[field],
            static_cast<float>(sign) * FLT_MAX);
}

// A position beyond the precision's range (sim/limits.h: beyond it two positions' difference can overflow)
// is refused by that precision's records, naming the particle, the coordinate, the range and the fix; fp32's
// edge is inside fp64's. The ends themselves are accepted.
TEST_F(NpyPrecision, PositionsBeyondThePrecisionsRangeAreRefused) {
  std::size_t inexact = 0;
  const char* names[] = {"x", "y", "z"};
  for (const Precision precision : kAllPrecisions) {
    const bool fp64 = precision == Precision::Fp64;
    const DoubleRange& range = fp64 ? kPositionRangeFp64 : kPositionRangeFp32;
    auto records = testing::random_particles_f64(m_rng, m_rng.uniform_int(2, 100), 0.5, inexact);
    const int row = m_rng.uniform_int(0, static_cast<int>(records.size()) - 1),
              field = m_rng.uniform_int(0, 2);
    const double sign = m_rng.uniform_int(0, 1) ? 1.0 : -1.0;
    double& position = (&records[static_cast<std::size_t>(row)].x)[field];
    position = sign * range.hi;
    const NpyState edge = load_npy_state(write("edge.npy", testing::npy_state_bytes(records, "<f8", false)));
    EXPECT_NO_THROW(fp64 ? (void)npy_records<Precision::Fp64>(edge)
                         : (void)npy_records<Precision::Fp32>(edge));
    position = sign * std::nextafter(range.hi, INFINITY) * (1 + std::ldexp(1.0, -m_rng.uniform_int(1, 40)));
    const std::string file =
        write("far.npy", testing::npy_state_bytes(records, "<f8", m_rng.uniform_int(0, 1)));
    const NpyState state = load_npy_state(file);
    try {
      fp64 ? (void)npy_records<Precision::Fp64>(state) : (void)npy_records<Precision::Fp32>(state);
      ADD_FAILURE() << to_string(precision) << " accepted position " << position;
    } catch (const NpyError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(file + ": position " + names[field] + " = ", 0), 0u) << what;
      EXPECT_TRUE(contains(what, " at particle " + std::to_string(row) + " is beyond the " +
                                     std::string(to_string(precision)) + " range of positions, " +
                                     describe(range)))
          << what;
      EXPECT_TRUE(contains(what, fp64 ? "; rescale the state" : "; run in fp64 or rescale the state"))
          << what;
    }
    if (!fp64) {
      EXPECT_NO_THROW((void)npy_records<Precision::Fp64>(state));
    }
  }
}

// Large states are read in bounded chunks, across which records (C order) and columns (Fortran) continue.
TEST_F(NpyPrecision, ChunkedReadsAreBoundedAndContinueAcrossChunks) {
  std::size_t inexact = 0;
  const std::string descr = kDescrs[m_rng.uniform_int(0, 3)];
  const bool fortran = m_rng.uniform_int(0, 1);
  SCOPED_TRACE(descr + (fortran ? " Fortran order" : " C order"));
  const auto records = values_for(descr, m_rng.uniform_int(40000, 90000), inexact);
  const std::string bytes = testing::npy_state_bytes(records, descr, fortran, m_rng.uniform_int(1, 3));
  std::size_t largest = 0, calls = 0;
  const NpyState state =
      decode_npy_state("mem.npy", bytes.size(), [&](std::uint64_t offset, void* destination, std::size_t n) {
        ASSERT_LE(offset + n, bytes.size());
        largest = std::max(largest, n);
        ++calls;
        std::memcpy(destination, bytes.data() + offset, n);
      });
  EXPECT_TRUE(testing::bitwise_equal(state.records, records));
  EXPECT_LE(largest, std::size_t{1} << 20) << "one read of the data at once";
  EXPECT_GE(calls, 3u + (bytes.size() >> 20)) << "preamble, header, then chunks";
}

TEST_F(NpyPrecision, RefusesDtypesThatAreNotFloat32OrFloat64WithAByteOrder) {
  const std::string refused[] = {"=f4", "|f4", "=f8", "|f8", "f4", "<f2", ">f16", "<i4", ">i8", "<c8", "<u4", "float32"};
  const std::string descr = refused[m_rng.uniform_int(0, static_cast<int>(std::size(refused)) - 1)];
  const int rows = m_rng.uniform_int(1, 50);
  const std::string file =
      write("t.npy", testing::npy_file_bytes("{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" +
                                                 std::to_string(rows) + ", 7), }",
                                             std::string(static_cast<std::size_t>(rows) * 56, '\0')));
  try {
    load_npy_state(file);
    ADD_FAILURE() << "accepted dtype " << descr;
  } catch (const NpyError& e) {
    EXPECT_EQ(std::string(e.what()), file + ": dtype is '" + descr +
                                         "'; expected float32 or float64 in either byte order ('<f4', '>f4', "
                                         "'<f8' or '>f8'): save with arr.astype('<f8')");
  }
}

// The size check uses the dtype's width: float32-sized data under an 'f8' header is short, and the
// reverse is long.
TEST_F(NpyPrecision, SizeIsCheckedWithTheDtypesWidth) {
  std::size_t inexact = 0;
  const auto records = testing::random_particles_f64(m_rng, m_rng.uniform_int(1, 200), 0.0, inexact);
  const bool fortran = m_rng.uniform_int(0, 1);
  for (const auto& [header_descr, data_descr] : {std::pair{">f8", ">f4"}, std::pair{"<f4", "<f8"}}) {
    const std::string header = "{'descr': '" + std::string(header_descr) + "', 'fortran_order': " +
                               (fortran ? "True" : "False") + ", 'shape': (" + std::to_string(records.size()) +
                               ", 7), }";
    const std::string bytes =
        testing::npy_file_bytes(header, testing::npy_values_bytes(records, data_descr, fortran));
    const std::string file = write("w.npy", bytes);
    const std::size_t expected = bytes.size() - records.size() * 7 * (data_descr[2] == '8' ? 8 : 4) +
                                 records.size() * 7 * (header_descr[2] == '8' ? 8 : 4);
    try {
      load_npy_state(file);
      ADD_FAILURE() << header_descr << " header over " << data_descr << " data was accepted";
    } catch (const NpyError& e) {
      EXPECT_TRUE(contains(e.what(), "; expected " + std::to_string(expected) + " for shape (" +
                                         std::to_string(records.size()) + ", 7) of '" + header_descr +
                                         "' (truncated or trailing data)"))
          << e.what();
    }
  }
}

// A negative mass too small for a float (-1e-50 rounds to -0.0f) is still negative in fp64: refused.
TEST_F(NpyPrecision, NegativeMassesBelowTheFloatRangeAreRefused) {
  std::size_t inexact = 0;
  auto records = testing::random_particles_f64(m_rng, m_rng.uniform_int(1, 100), 0.5, inexact);
  const int row = m_rng.uniform_int(0, static_cast<int>(records.size()) - 1);
  records[static_cast<std::size_t>(row)].mass = -std::ldexp(1.0, -m_rng.uniform_int(160, 1000));
  const std::string file = write("m.npy", testing::npy_state_bytes(records, kDescrs[m_rng.uniform_int(2, 3)],
                                                                   m_rng.uniform_int(0, 1)));
  try {
    load_npy_state(file);
    ADD_FAILURE() << "accepted mass " << records[static_cast<std::size_t>(row)].mass;
  } catch (const NpyError& e) {
    EXPECT_TRUE(contains(e.what(), "at particle " + std::to_string(row) + "; expected a number from 0 to 1e12"))
        << e.what();
  }
}

}  // namespace
}  // namespace coalesce
