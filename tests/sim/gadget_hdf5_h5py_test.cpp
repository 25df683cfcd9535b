// GADGET HDF5 snapshots checked against h5py: the files save_gadget_hdf5 writes read in h5py with the
// dtypes, shapes, header and values we wrote, and a GADGET-style file h5py writes (gas with fields we do not
// use, a MassTable mass, uint32 IDs, a gzip-compressed dataset) loads exactly. Skips, saying so, where
// python3-h5py is missing.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "sim/gadget_hdf5.h"
#include "sim/hdf5_image.h"
#include "tests/support/process.h"
#include "tests/support/python.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

// argv: path, rows, dtype ('<f4' or '<f8'), time, length, mass (or 'none'). Checks the file as h5py reads
// it, then writes path.values (rows x 7 '<f8', C order) and path.ids (rows '<u8').
constexpr const char* kReadScript = R"(
import sys
import h5py
import numpy as np
path, rows, dtype, time = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
def check(ok, what):
    if not ok:
        sys.exit('%s: %s' % (path, what))
with h5py.File(path, 'r') as f:
    h = f['Header'].attrs
    check(list(h['NumPart_ThisFile']) == [0, rows, 0, 0, 0, 0], 'NumPart_ThisFile %s' % h['NumPart_ThisFile'])
    check(list(h['NumPart_Total']) == [0, rows, 0, 0, 0, 0], 'NumPart_Total')
    check(list(h['NumPart_Total_HighWord']) == [0] * 6, 'NumPart_Total_HighWord')
    check(list(h['MassTable']) == [0.0] * 6 and h['MassTable'].dtype == '<f8', 'MassTable')
    check(h['Time'] == time and h['Redshift'] == 0 and h['BoxSize'] == 0, 'Time, Redshift, BoxSize')
    check(h['NumFilesPerSnapshot'] == 1, 'NumFilesPerSnapshot')
    check(h['Flag_DoublePrecision'] == (1 if dtype == '<f8' else 0), 'Flag_DoublePrecision')
    if sys.argv[5] == 'none':
        check('Parameters' not in f, 'unit attributes without units')
    else:
        p = f['Parameters'].attrs
        length, mass = float(sys.argv[5]), float(sys.argv[6])
        check(p['UnitLength_in_cm'] == length and p['UnitMass_in_g'] == mass, 'units')
        check(abs(p['UnitVelocity_in_cm_per_s'] / np.sqrt(6.67430e-8 * mass / length) - 1) < 1e-15, 'G = 1')
    g = f['PartType1']
    check(sorted(g.keys()) == ['Coordinates', 'Masses', 'ParticleIDs', 'Velocities'], 'datasets %s' % list(g.keys()))
    for name, shape in (('Coordinates', (rows, 3)), ('Velocities', (rows, 3)), ('Masses', (rows,))):
        check(g[name].dtype.str == dtype and g[name].shape == shape, '%s is %s %s' % (name, g[name].dtype.str, g[name].shape))
    check(g['ParticleIDs'].dtype.str == '<u8' and g['ParticleIDs'].shape == (rows,), 'ParticleIDs')
    values = np.concatenate([g['Coordinates'][:], g['Velocities'][:], g['Masses'][:].reshape(rows, 1)], axis=1)
    values.astype('<f8').tofile(path + '.values')
    g['ParticleIDs'][:].astype('<u8').tofile(path + '.ids')
)";

// argv: folder, n0, n1, time, length, mass. Reads folder/values.f8 ((n0 + n1) x 7 '<f8') and folder/ids.u4,
// and writes folder/gadget.hdf5 as GADGET-2 and AREPO write snapshots.
constexpr const char* kWriteScript = R"(
import sys
import h5py
import numpy as np
folder, n0, n1, time, length, mass = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
values = np.fromfile(folder + '/values.f8', dtype='<f8').reshape(n0 + n1, 7)
ids = np.fromfile(folder + '/ids.u4', dtype='<u4')
gas, halo = values[:n0], values[n0:]
with h5py.File(folder + '/gadget.hdf5', 'w') as f:
    h = f.create_group('Header').attrs
    h['NumPart_ThisFile'] = np.array([n0, n1, 0, 0, 0, 0], dtype='<u4')
    h['NumPart_Total'] = np.array([n0, n1, 0, 0, 0, 0], dtype='<u4')
    h['NumPart_Total_HighWord'] = np.zeros(6, dtype='<u4')
    h['MassTable'] = np.array([0, halo[0, 6] if n1 else 0, 0, 0, 0, 0], dtype='<f8')
    h['Time'] = time
    h['Redshift'] = 0.0
    h['BoxSize'] = 0.0
    h['NumFilesPerSnapshot'] = np.int32(1)
    h['Flag_DoublePrecision'] = np.int32(1)
    p = f.create_group('Parameters').attrs
    p['UnitLength_in_cm'] = length
    p['UnitMass_in_g'] = mass
    p['UnitVelocity_in_cm_per_s'] = np.sqrt(6.67430e-8 * mass / length)
    g = f.create_group('PartType0')
    g['Coordinates'] = gas[:, 0:3].astype('<f4')
    g['Velocities'] = gas[:, 3:6].astype('<f4')
    g['Masses'] = gas[:, 6].astype('<f4')
    g['ParticleIDs'] = ids[:n0]
    g['InternalEnergy'] = np.ones(n0, dtype='<f4')
    g['Density'] = np.ones(n0, dtype='<f4')
    g['SmoothingLength'] = np.ones(n0, dtype='<f4')
    g = f.create_group('PartType1')
    g.create_dataset('Coordinates', data=halo[:, 0:3].astype('>f8'), compression='gzip', shuffle=True)
    g['Velocities'] = halo[:, 3:6]
    g['ParticleIDs'] = ids[n0:]
)";

class GadgetHdf5H5py : public ::testing::Test {
 protected:
  void SetUp() override {
    m_python = testing::python_with("import h5py, numpy");
    if (m_python.empty()) GTEST_SKIP() << "skipped: python3-h5py not installed (scripts/install-deps)";
  }
  void TearDown() override { EXPECT_EQ(open_hdf5_objects(), 0) << "an HDF5 object was left open"; }

  void run_python(const char* script, const std::vector<std::string>& arguments) const {
    testing::run_python(m_python, script, arguments);
  }

  static std::string text(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
  }

  std::string m_python;
  testing::TestRng m_rng;
  testing::TempDir m_dir;
};

TEST_F(GadgetHdf5H5py, H5pyReadsOurFilesWithOurValues) {
  const int rows = m_rng.uniform_int(1, 3000);
  std::size_t inexact = 0;
  const auto doubles = testing::random_particles_f64(m_rng, rows, 0.5, inexact);
  const auto floats = testing::random_particles(m_rng, rows);
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(rows));
  for (auto& id : ids) id = m_rng.engine()();
  StateExtras extras;
  extras.ids = &ids;
  extras.time = m_rng.uniform(0.0f, 50.0f) / 3.0;
  PhysicalUnits units;
  units.length_in_cm = kKpcInCm * m_rng.uniform(0.1f, 10.0f);
  units.mass_in_g = kSolarMassInG * m_rng.uniform(1e9f, 1e11f);
  const std::string f8 = m_dir.file("ours-f8.hdf5"), f4 = m_dir.file("ours-f4.h5");
  save_gadget_hdf5(check_output_path("test", f8), doubles, extras);
  extras.units = units;
  save_gadget_hdf5(check_output_path("test", f4), floats, extras);
  ASSERT_NO_FATAL_FAILURE(
      run_python(kReadScript, {f8, std::to_string(rows), "<f8", text(extras.time), "none"}));
  ASSERT_NO_FATAL_FAILURE(run_python(kReadScript, {f4, std::to_string(rows), "<f4", text(extras.time),
                                                   text(units.length_in_cm), text(units.mass_in_g)}));
  EXPECT_TRUE(testing::bitwise_equal(testing::values_in_file<ParticleF64>(f8 + ".values"), doubles));
  std::vector<ParticleF64> widened;
  for (const Particle& p : floats) widened.push_back(record_cast<double>(p));
  EXPECT_TRUE(testing::bitwise_equal(testing::values_in_file<ParticleF64>(f4 + ".values"), widened));
  EXPECT_EQ(testing::values_in_file<std::uint64_t>(f8 + ".ids"), ids);
  EXPECT_EQ(testing::values_in_file<std::uint64_t>(f4 + ".ids"), ids);
}

TEST_F(GadgetHdf5H5py, AGadgetFileH5pyWroteLoadsExactly) {
  const int n0 = m_rng.uniform_int(1, 2000), n1 = m_rng.uniform_int(1, 2000);
  std::size_t inexact = 0;
  auto values = testing::random_particles_f64(m_rng, n0 + n1, 0.5, inexact);
  const double halo_mass = values[static_cast<std::size_t>(n0)].mass;
  std::vector<std::uint32_t> ids(values.size());
  for (auto& id : ids) id = static_cast<std::uint32_t>(m_rng.engine()());
  std::ofstream(m_dir.file("values.f8"), std::ios::binary)
      .write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * 56));
  std::ofstream(m_dir.file("ids.u4"), std::ios::binary)
      .write(reinterpret_cast<const char*>(ids.data()), static_cast<std::streamsize>(ids.size() * 4));
  const double time = m_rng.uniform(0.0f, 1.0f) / 7.0, length = 3.0856775814913673e21, mass = 1.989e43;
  ASSERT_NO_FATAL_FAILURE(run_python(
      kWriteScript,
      {m_dir.path().string(), std::to_string(n0), std::to_string(n1), text(time), text(length), text(mass)}));

  // Gas as h5py's float32 holds it, the halo exactly, with MassTable's mass.
  for (int i = 0; i < n0; ++i)
    values[static_cast<std::size_t>(i)] =
        record_cast<double>(record_cast<float>(values[static_cast<std::size_t>(i)]));
  for (int i = n0; i < n0 + n1; ++i) values[static_cast<std::size_t>(i)].mass = halo_mass;
  const StateContents contents = load_gadget_hdf5(m_dir.file("gadget.hdf5"));
  EXPECT_TRUE(testing::bitwise_equal(contents.records, values));
  EXPECT_EQ(contents.ids, std::vector<std::uint64_t>(ids.begin(), ids.end()));
  EXPECT_TRUE(contents.ids_from_file);
  EXPECT_TRUE(contents.held_doubles);
  EXPECT_EQ(contents.time, time);
  ASSERT_TRUE(contents.units.has_value());
  EXPECT_EQ(contents.units->length_in_cm, length);
  EXPECT_EQ(contents.units->mass_in_g, mass);
  EXPECT_EQ(contents.converted, "") << "UnitVelocity_in_cm_per_s is the G = 1 unit";
  EXPECT_EQ(contents.ignored, "PartType0/Density, PartType0/InternalEnergy, PartType0/SmoothingLength");
}

}  // namespace
}  // namespace coalesce
