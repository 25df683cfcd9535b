// GADGET HDF5 snapshots: bitwise round trips in both precisions with IDs, time and units; MassTable masses;
// files with several particle types and fields we do not use; each refusal in one line naming its problem;
// random bytes, cut files and changed bytes (libhdf5 is unsafe on these, so it runs in a child process); a
// full disk. Every load and save leaves no HDF5 object open. (Files of h5py itself:
// gadget_hdf5_h5py_test.cpp.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "sim/gadget_hdf5.h"
#include "sim/hdf5_image.h"
#include "sim/limits.h"
#include "tests/support/child_leaks.h"
#include "tests/support/hdf5_edit.h"
#include "tests/support/process.h"
#include "tests/support/scratch_files.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

namespace fs = std::filesystem;

std::vector<ParticleF64> widened(const std::vector<Particle>& floats) {
  std::vector<ParticleF64> doubles;
  for (const Particle& p : floats) doubles.push_back(record_cast<double>(p));
  return doubles;
}

class GadgetHdf5 : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(open_hdf5_objects(), 0) << "an HDF5 object was left open"; }

  std::string path(const std::string& name) const { return m_dir.file(name); }

  std::vector<std::uint64_t> random_ids(std::size_t n) {
    std::vector<std::uint64_t> ids(n);
    for (auto& id : ids) id = m_rng.engine()();
    return ids;
  }

  PhysicalUnits random_units() {
    PhysicalUnits units;
    units.length_in_cm = kKpcInCm * m_rng.uniform(0.01f, 100.0f);
    units.mass_in_g = kSolarMassInG * 1e10 * m_rng.uniform(0.01f, 100.0f);
    return units;
  }

  // A valid fp32 snapshot of n particles (PartType1, masses in the dataset), as save_gadget_hdf5 writes it.
  std::string saved(const std::string& name, int n) {
    m_particles = testing::random_particles(m_rng, n);
    save_gadget_hdf5(check_output_path("test", path(name)), m_particles, StateExtras{});
    return path(name);
  }

  // Loading `file` fails with one line that starts with the file's name and contains `needle`.
  static void expect_rejects(const std::string& file, const std::string& needle) {
    try {
      const StateContents contents = load_gadget_hdf5(file);
      ADD_FAILURE() << "accepted " << file << " (" << contents.records.size() << " particles)";
    } catch (const UsageError& e) {  // Hdf5Error, or the input reader's refusal
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(file + ": ", 0), 0u) << what;
      EXPECT_NE(what.find(needle), std::string::npos) << "no '" << needle << "' in: " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    EXPECT_EQ(open_hdf5_objects(), 0) << "the refusal left an HDF5 object open";
  }

  testing::TestRng m_rng;
  testing::TempDir m_dir;
  std::vector<Particle> m_particles;
};

TEST_F(GadgetHdf5, Fp32RoundTripIsBitwiseWithIdsTimeAndUnits) {
  const auto particles = testing::random_particles(m_rng, m_rng.uniform_int(1, 5000));
  const auto ids = random_ids(particles.size());
  StateExtras extras;
  extras.ids = &ids;
  extras.time = m_rng.uniform(-100.0f, 100.0f) / 3.0;
  extras.units = random_units();
  save_gadget_hdf5(check_output_path("test", path("s.hdf5")), particles, extras);
  EXPECT_EQ(open_hdf5_objects(), 0) << "the save left an HDF5 object open";

  const StateContents contents = load_gadget_hdf5(path("s.hdf5"));
  EXPECT_TRUE(testing::bitwise_equal(contents.records, widened(particles)));
  EXPECT_EQ(contents.ids, ids);
  EXPECT_TRUE(contents.ids_from_file);
  EXPECT_EQ(contents.time, extras.time);
  ASSERT_TRUE(contents.units.has_value());
  EXPECT_EQ(contents.units->length_in_cm, extras.units->length_in_cm);
  EXPECT_EQ(contents.units->mass_in_g, extras.units->mass_in_g);
  EXPECT_FALSE(contents.held_doubles);
  EXPECT_EQ(contents.converted, "") << "our own velocity unit must read back as the G = 1 unit";
  EXPECT_EQ(contents.ignored, "");
  EXPECT_EQ(contents.name, path("s.hdf5"));
  EXPECT_EQ(contents.format, "gadget-hdf5");
}

TEST_F(GadgetHdf5, Fp64RoundTripIsBitwiseAndUnknownUnitsStayUnknown) {
  std::size_t inexact = 0;
  const auto particles = testing::random_particles_f64(m_rng, m_rng.uniform_int(1, 5000), 0.5, inexact);
  StateExtras extras;
  extras.time = m_rng.uniform(0.0f, 10.0f) + 1e-12;  // no float holds it
  save_gadget_hdf5(check_output_path("test", path("d.h5")), particles, extras);
  const StateContents contents = load_gadget_hdf5(path("d.h5"));
  EXPECT_TRUE(testing::bitwise_equal(contents.records, particles));
  EXPECT_TRUE(contents.held_doubles);
  EXPECT_EQ(contents.time, extras.time);
  EXPECT_FALSE(contents.units.has_value()) << "no unit attributes were written, so none may be read";
  ASSERT_EQ(contents.ids.size(), particles.size());
  for (std::size_t i = 0; i < particles.size(); ++i) ASSERT_EQ(contents.ids[i], i);
  EXPECT_TRUE(contents.ids_from_file) << "the writer stores 0..N-1 as ParticleIDs";
  testing::edit_hdf5(path("d.h5"), [](hid_t file) { H5Ldelete(file, "PartType1/ParticleIDs", H5P_DEFAULT); });
  EXPECT_FALSE(load_gadget_hdf5(path("d.h5")).ids_from_file);
}

TEST_F(GadgetHdf5, MassTableGivesTheMassWhereNoDatasetDoes) {
  const std::string file = saved("table.hdf5", m_rng.uniform_int(1, 500));
  const double mass = m_rng.uniform(0.001f, 2.0f) / 7.0;
  testing::edit_hdf5(file, [&](hid_t h5) {
    const Hdf5Group header(H5Gopen2(h5, "Header", H5P_DEFAULT));
    const double table[6] = {0, mass, 0, 0, 0, 0};
    testing::put_attribute(header.get(), "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, table, 6);
  });
  // Both: GADGET takes MassTable's mass and skips the dataset; so do we, and say so.
  StateContents contents = load_gadget_hdf5(file);
  for (const ParticleF64& p : contents.records) ASSERT_EQ(p.mass, mass);
  EXPECT_EQ(contents.ignored, "PartType1/Masses (MassTable's mass used)");
  testing::edit_hdf5(file, [](hid_t h5) { H5Ldelete(h5, "PartType1/Masses", H5P_DEFAULT); });
  contents = load_gadget_hdf5(file);
  ASSERT_EQ(contents.records.size(), m_particles.size());
  for (std::size_t i = 0; i < m_particles.size(); ++i) {
    ASSERT_EQ(contents.records[i].mass, mass);
    ASSERT_EQ(contents.records[i].x, m_particles[i].x);
  }
  EXPECT_EQ(contents.ignored, "");
}

// Gas first, then halo, then stars: every type gravitates, in type order, with its own IDs, and the gas
// fields we have no place for are named.
TEST_F(GadgetHdf5, SeveralTypesLoadInTypeOrderAndUnusedFieldsAreNamed) {
  const int counts[6] = {
      m_rng.uniform_int(1, 300), m_rng.uniform_int(1, 300), 0, 0, m_rng.uniform_int(1, 300), 0};
  std::vector<ParticleF64> expected;
  std::vector<std::uint64_t> expected_ids;
  const double halo_mass = 0.25;
  testing::edit_hdf5(
      path("multi.hdf5"),
      [&](hid_t file) {
        for (int type : {0, 1, 4}) {
          const Hdf5Group group =
              testing::open_or_make_group(file, ("PartType" + std::to_string(type)).c_str());
          const auto floats = testing::random_particles(m_rng, counts[type]);
          std::vector<double> xyz, vxyz, mass;
          std::vector<std::uint32_t> ids;
          for (const Particle& p : floats) {
            ParticleF64 q = record_cast<double>(p);
            if (type == 1) q.mass = halo_mass;
            xyz.insert(xyz.end(), {q.x, q.y, q.z});
            vxyz.insert(vxyz.end(), {q.vx, q.vy, q.vz});
            mass.push_back(q.mass);
            ids.push_back(static_cast<std::uint32_t>(m_rng.engine()()));
            expected.push_back(q);
            expected_ids.push_back(ids.back());
          }
          const hsize_t n = static_cast<hsize_t>(counts[type]);
          const hid_t real = type == 0 ? H5T_IEEE_F32LE : H5T_IEEE_F64BE;  // converted exactly either way
          testing::put_dataset(group.get(), "Coordinates", real, H5T_NATIVE_DOUBLE, {n, 3}, xyz.data());
          testing::put_dataset(group.get(), "Velocities", real, H5T_NATIVE_DOUBLE, {n, 3}, vxyz.data());
          if (type != 1)
            testing::put_dataset(group.get(), "Masses", real, H5T_NATIVE_DOUBLE, {n}, mass.data());
          testing::put_dataset(group.get(), "ParticleIDs", H5T_STD_U32LE, H5T_NATIVE_UINT32, {n}, ids.data());
          if (type == 0) {
            testing::put_dataset(group.get(), "InternalEnergy", H5T_IEEE_F32LE, H5T_NATIVE_DOUBLE, {n},
                                 mass.data());
            testing::put_dataset(group.get(), "Density", H5T_IEEE_F32LE, H5T_NATIVE_DOUBLE, {n}, mass.data());
          }
        }
        const Hdf5Group header = testing::open_or_make_group(file, "Header");
        const std::int32_t this_file[6] = {counts[0], counts[1], 0, 0, counts[4], 0};  // GADGET-2 wrote int
        const std::uint64_t total[6] = {std::uint64_t(counts[0]),
                                        std::uint64_t(counts[1]),
                                        0,
                                        0,
                                        std::uint64_t(counts[4]),
                                        0};  // GADGET-4 writes uint64, no high word
        const double table[6] = {0, halo_mass, 0, 0, 0, 0};
        const double time = 0.5;
        testing::put_attribute(header.get(), "NumPart_ThisFile", H5T_STD_I32LE, H5T_NATIVE_INT32, this_file,
                               6);
        testing::put_attribute(header.get(), "NumPart_Total", H5T_STD_U64LE, H5T_NATIVE_UINT64, total, 6);
        testing::put_attribute(header.get(), "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, table, 6);
        testing::put_attribute(header.get(), "Time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &time);
        testing::open_or_make_group(file, "Config");
      },
      true);
  const StateContents contents = load_gadget_hdf5(path("multi.hdf5"));
  EXPECT_TRUE(testing::bitwise_equal(contents.records, expected));
  EXPECT_EQ(contents.ids, expected_ids);
  EXPECT_TRUE(contents.ids_from_file);
  EXPECT_TRUE(contents.held_doubles);
  EXPECT_EQ(contents.time, 0.5);
  EXPECT_EQ(contents.ignored, "PartType0/Density, PartType0/InternalEnergy");
}

// GADGET's usual units (kpc, 1e10 Msun, km/s) do not make G = 1: velocities and time are restated in the
// velocity unit that does, and the notice says by how much. AREPO keeps them in Header: read there too.
TEST_F(GadgetHdf5, OtherVelocityUnitsAreRestatedForGEqualsOne) {
  for (const char* group : {"Parameters", "Header"}) {
    SCOPED_TRACE(group);
    const std::string file = saved(std::string(group) + ".hdf5", m_rng.uniform_int(1, 200));
    const double time = 2.0;
    testing::edit_hdf5(file, [&](hid_t h5) {
      const Hdf5Group g = testing::open_or_make_group(h5, group);
      const double length = kKpcInCm, mass = 1e10 * kSolarMassInG, velocity = kKmInCm;
      testing::put_attribute(g.get(), "UnitLength_in_cm", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &length);
      testing::put_attribute(g.get(), "UnitMass_in_g", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &mass);
      testing::put_attribute(g.get(), "UnitVelocity_in_cm_per_s", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                             &velocity);
      const Hdf5Group header(H5Gopen2(h5, "Header", H5P_DEFAULT));
      testing::put_attribute(header.get(), "Time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &time);
    });
    const StateContents contents = load_gadget_hdf5(file);
    ASSERT_TRUE(contents.units.has_value());
    const double factor = kKmInCm / contents.units->velocity_in_cm_per_s();  // about 1 / 207.4
    EXPECT_NEAR(factor, 1 / 207.4, 0.01 / 207.4);
    for (std::size_t i = 0; i < m_particles.size(); ++i) {
      ASSERT_EQ(contents.records[i].vx, m_particles[i].vx * factor);
      ASSERT_EQ(contents.records[i].x, m_particles[i].x);
    }
    EXPECT_EQ(contents.time, time / factor);
    EXPECT_NE(contents.converted.find("UnitVelocity_in_cm_per_s 1e5 restated"), std::string::npos)
        << contents.converted;
  }
}

TEST_F(GadgetHdf5, EachRefusalNamesItsProblem) {
  const int n = m_rng.uniform_int(2, 300);
  const auto change = [&](const std::string& name, const std::function<void(hid_t)>& edit) {
    const std::string file = saved(name, n);
    testing::edit_hdf5(file, edit);
    return file;
  };
  const auto header_attribute = [](hid_t h5, const char* name, hid_t type, hid_t memory, const void* v,
                                   hsize_t k) {
    const Hdf5Group header(H5Gopen2(h5, "Header", H5P_DEFAULT));
    testing::put_attribute(header.get(), name, type, memory, v, k);
  };
  const auto type1 = [](hid_t h5) { return Hdf5Group(H5Gopen2(h5, "PartType1", H5P_DEFAULT)); };
  const hsize_t rows = static_cast<hsize_t>(n);

  expect_rejects(change("no-header.hdf5", [](hid_t h5) { H5Ldelete(h5, "Header", H5P_DEFAULT); }),
                 "has no Header group");
  expect_rejects(change("dims.hdf5",
                        [&](hid_t h5) {
                          const std::vector<float> values(rows * 2, 0.5f);
                          testing::put_dataset(type1(h5).get(), "Coordinates", H5T_IEEE_F32LE,
                                               H5T_NATIVE_FLOAT, {rows, 2}, values.data());
                        }),
                 "PartType1/Coordinates has shape (" + std::to_string(n) + ", 2); expected (" +
                     std::to_string(n) + ", 3)");
  expect_rejects(change("int-coordinates.hdf5",
                        [&](hid_t h5) {
                          const std::vector<std::int32_t> values(rows * 3, 1);
                          testing::put_dataset(type1(h5).get(), "Coordinates", H5T_STD_I32LE,
                                               H5T_NATIVE_INT32, {rows, 3}, values.data());
                        }),
                 "PartType1/Coordinates holds int32; expected float32 or float64");
  expect_rejects(change("two-files.hdf5",
                        [&](hid_t h5) {
                          const int files = 2;
                          header_attribute(h5, "NumFilesPerSnapshot", H5T_STD_I32LE, H5T_NATIVE_INT, &files,
                                           0);
                        }),
                 "NumFilesPerSnapshot is 2");
  expect_rejects(change("too-many.hdf5",
                        [&](hid_t h5) {
                          const std::uint64_t counts[6] = {0, std::uint64_t(kMaxParticles) + 1, 0, 0, 0, 0};
                          header_attribute(h5, "NumPart_ThisFile", H5T_STD_U64LE, H5T_NATIVE_UINT64, counts,
                                           6);
                          header_attribute(h5, "NumPart_Total", H5T_STD_U64LE, H5T_NATIVE_UINT64, counts, 6);
                        }),
                 "claims more than " + std::to_string(kMaxParticles) + " particles");
  expect_rejects(change("total.hdf5",
                        [&](hid_t h5) {
                          const std::uint32_t total[6] = {0, std::uint32_t(n) + 1, 0, 0, 0, 0};
                          header_attribute(h5, "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT32, total, 6);
                        }),
                 "NumPart_Total[1] is " + std::to_string(n + 1));
  expect_rejects(change("negative-ids.hdf5",
                        [&](hid_t h5) {
                          std::vector<std::int64_t> ids(rows);
                          for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<std::int64_t>(i);
                          ids[rows / 2] = -3;
                          testing::put_dataset(type1(h5).get(), "ParticleIDs", H5T_STD_I64LE,
                                               H5T_NATIVE_INT64, {rows}, ids.data());
                        }),
                 "PartType1/ParticleIDs row " + std::to_string(rows / 2) + " is -3");
  for (const double bad : {std::nan(""), std::numeric_limits<double>::infinity()}) {
    expect_rejects(
        change("nonfinite.hdf5",
               [&](hid_t h5) {
                 std::vector<double> v(rows * 3, 0.25);
                 v[rows * 3 - 1] = bad;
                 testing::put_dataset(type1(h5).get(), "Velocities", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE,
                                      {rows, 3}, v.data());
               }),
        "PartType1/Velocities row " + std::to_string(n - 1) + " holds " + (std::isnan(bad) ? "nan" : "inf"));
  }
  expect_rejects(change("negative-mass.hdf5",
                        [&](hid_t h5) {
                          std::vector<float> m(rows, 0.5f);
                          m[0] = -1.0f;
                          testing::put_dataset(type1(h5).get(), "Masses", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT,
                                               {rows}, m.data());
                        }),
                 "PartType1/Masses row 0 is a mass of -1");
  expect_rejects(change("unwritten.hdf5",
                        [&](hid_t h5) {
                          testing::put_dataset(type1(h5).get(), "Velocities", H5T_IEEE_F32LE,
                                               H5T_NATIVE_FLOAT, {rows, 3}, nullptr);
                        }),
                 "PartType1/Velocities stores 0 bytes");
  expect_rejects(change("external.hdf5",
                        [&](hid_t h5) {
                          H5Ldelete(h5, "Header", H5P_DEFAULT);
                          H5Lcreate_external("/etc/other.hdf5", "/Header", h5, "Header", H5P_DEFAULT,
                                             H5P_DEFAULT);
                        }),
                 "Header is an external link");
  expect_rejects(
      change("mixed-ids.hdf5",
             [&](hid_t h5) {
               const std::uint32_t counts[6] = {std::uint32_t(n), std::uint32_t(n), 0, 0, 0, 0};
               header_attribute(h5, "NumPart_ThisFile", H5T_STD_U32LE, H5T_NATIVE_UINT32, counts, 6);
               header_attribute(h5, "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT32, counts, 6);
               H5Ocopy(h5, "PartType1", h5, "PartType0", H5P_DEFAULT, H5P_DEFAULT);
               H5Ldelete(h5, "PartType0/ParticleIDs", H5P_DEFAULT);
             }),
      "PartType0 has no ParticleIDs but PartType1 has; expected IDs for every particle type or for none");
  expect_rejects(
      change("no-velocities.hdf5", [](hid_t h5) { H5Ldelete(h5, "PartType1/Velocities", H5P_DEFAULT); }),
      "has no PartType1/Velocities");
  std::ofstream(path("noise.hdf5"), std::ios::binary)
      << testing::random_bytes(m_rng, m_rng.uniform_int(1, 4000));
  expect_rejects(path("noise.hdf5"), "not a readable HDF5 file (file signature not found at byte 0, 512");
  std::ofstream(path("empty.hdf5"), std::ios::binary).flush();
  expect_rejects(path("empty.hdf5"), "is empty");
  expect_rejects(path("missing.hdf5"), "no such file");
}

// decode_gadget_hdf5 over `bytes`: read with its promises kept, or refused in one line naming the file,
// with no HDF5 object left open either way. True when read; `died` counts refusals of a decoding process
// that died.
bool read_or_refused_cleanly(const std::string& bytes, int* died = nullptr) {
  bool read = false;
  try {
    const StateContents contents = decode_gadget_hdf5("damaged.hdf5", bytes);
    read = true;
    EXPECT_FALSE(contents.records.empty());
    EXPECT_EQ(contents.ids.size(), contents.records.size());
    for (const ParticleF64& p : contents.records) {
      for (const double v : {p.x, p.y, p.z, p.vx, p.vy, p.vz}) EXPECT_TRUE(std::isfinite(v));
      EXPECT_TRUE(kMassRange.contains(p.mass));
    }
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("damaged.hdf5: ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    if (died && what.find("libhdf5 failed while decoding") != std::string::npos) ++*died;
  }
  EXPECT_EQ(open_hdf5_objects(), 0);
  return read;
}

// Random bytes, with and without HDF5's signature, and real snapshots cut short are refused in one line:
// never a crash, a hang or an exception of another kind.
TEST_F(GadgetHdf5, RandomBytesAndCutFilesAreRefusedCleanly) {
  const std::string good = testing::read_file(saved("good.hdf5", m_rng.uniform_int(1, 64)));
  for (int round = 0; round < 300; ++round) {
    std::string bytes;
    if (round < 100) {
      bytes = testing::random_bytes(m_rng, m_rng.uniform_int(0, 3000));
      if (round % 2) bytes.replace(0, std::min<std::size_t>(8, bytes.size()), "\x89HDF\r\n\x1a\n", 0);
    } else {
      bytes =
          good.substr(0, static_cast<std::size_t>(m_rng.uniform_int(0, static_cast<int>(good.size()) - 1)));
    }
    EXPECT_FALSE(read_or_refused_cleanly(bytes)) << "round " << round << ": " << bytes.size() << " bytes";
    if (HasFailure()) break;
  }
  EXPECT_TRUE(read_or_refused_cleanly(good));
}

// Bytes changed inside a snapshot's metadata can make libhdf5 1.10.8 itself read freed or out-of-bounds
// memory (AddressSanitizer: heap-use-after-free in H5O_attr_shared_decode, below H5Aexists;
// docs/reliability.md, "Hostile GADGET HDF5 files"). It decodes in a child process, so each file is read
// with its promises kept or refused in one line, also where the child died (under ASan it ends there).
TEST_F(GadgetHdf5, ChangedBytesAreReadOrRefusedCleanly) {
  const std::string good = testing::read_file(saved("good.hdf5", m_rng.uniform_int(1, 64)));
  const int fds = testing::open_fd_count();
  int read = 0, died = 0;
  for (int round = 0; round < 150; ++round) {
    std::string bytes = good;
    const int changes = m_rng.uniform_int(1, 8);
    for (int c = 0; c < changes; ++c)
      bytes[static_cast<std::size_t>(m_rng.uniform_int(0, static_cast<int>(bytes.size()) - 1))] =
          static_cast<char>(m_rng.uniform_int(0, 255));
    read += read_or_refused_cleanly(bytes, &died);
    if (HasFailure()) break;
  }
  RecordProperty("read", read);
  RecordProperty("died", died);  // the decoding process crashed (docs/reliability.md counts these)
  EXPECT_GT(read, 0) << "no changed file was read: are the changes all in the metadata?";
  EXPECT_EQ(testing::open_fd_count(), fds) << "a descriptor was left open";
  EXPECT_TRUE(testing::no_child_left()) << "a decoding process was left unreaped";
}

// A full disk fails in write_output, after libhdf5 is done: one line, the previous file whole, no temporary.
TEST_F(GadgetHdf5, FullDiskLeavesThePreviousFile) {
  const testing::SmallDisk disk(path("disk"), 64);
  if (!disk.mounted()) GTEST_SKIP() << "skipped: cannot mount a tmpfs here (needs root)";
  const std::string file = path("disk/state.hdf5");
  const std::string old = testing::random_bytes(m_rng, 3000);
  std::ofstream(file, std::ios::binary) << old;
  const auto particles = testing::random_particles(m_rng, m_rng.uniform_int(4000, 8000));  // 112+ KB
  try {
    save_gadget_hdf5(check_output_path("--save-state", file), particles, StateExtras{});
    ADD_FAILURE() << "a 64 KiB disk took the snapshot";
  } catch (const RuntimeFailure& e) {
    EXPECT_NE(std::string(e.what()).find("No space left on device"), std::string::npos) << e.what();
  }
  EXPECT_EQ(testing::read_file(file), old);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(path("disk"))) names.push_back(entry.path().filename());
  EXPECT_EQ(names, std::vector<std::string>{"state.hdf5"}) << "a temporary was left";
}

}  // namespace
}  // namespace coalesce
