// Tipsy files checked against NumPy: the files save_tipsy writes read in NumPy with the dtypes of
// docs/formats.md to the values we wrote, and files NumPy writes with those dtypes (gas and stars too, and
// a .iord as pynbody writes it) load with the values NumPy holds. Skips, saying so, where python3-numpy is
// missing.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sim/tipsy.h"
#include "tests/support/process.h"
#include "tests/support/python.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

// The dtypes of docs/formats.md, for byte order E ('>' standard, '<' native).
constexpr const char* kDtypes = R"(
import sys
import numpy as np
def dtypes(e):
    header = np.dtype([('time', e + 'f8'), ('nbodies', e + 'i4'), ('ndim', e + 'i4'), ('nsph', e + 'i4'),
                       ('ndark', e + 'i4'), ('nstar', e + 'i4'), ('pad', e + 'i4')])
    gas = np.dtype([('mass', e + 'f4'), ('pos', e + 'f4', 3), ('vel', e + 'f4', 3), ('rho', e + 'f4'),
                    ('temp', e + 'f4'), ('hsmooth', e + 'f4'), ('metals', e + 'f4'), ('phi', e + 'f4')])
    dark = np.dtype([('mass', e + 'f4'), ('pos', e + 'f4', 3), ('vel', e + 'f4', 3), ('eps', e + 'f4'),
                     ('phi', e + 'f4')])
    star = np.dtype([('mass', e + 'f4'), ('pos', e + 'f4', 3), ('vel', e + 'f4', 3), ('metals', e + 'f4'),
                     ('tform', e + 'f4'), ('eps', e + 'f4'), ('phi', e + 'f4')])
    if (header.itemsize, gas.itemsize, dark.itemsize, star.itemsize) != (32, 48, 36, 44):
        sys.exit('dtype sizes %d %d %d %d' % (header.itemsize, gas.itemsize, dark.itemsize, star.itemsize))
    return header, gas, dark, star
)";

// argv: PATH E. Reads our file and PATH.iord; writes PATH.time ('<f8'), PATH.rows (x, y, z, vx, vy, vz,
// mass, eps, phi as '<f4' per particle) and PATH.ids ('<u8').
constexpr const char* kReadScript = R"(
path, e = sys.argv[1], sys.argv[2]
header, gas, dark, star = dtypes(e)
with open(path, 'rb') as f:
    data = f.read()
h = np.frombuffer(data, header, count=1)[0]
if h['ndim'] != 3 or h['nsph'] != 0 or h['nstar'] != 0 or h['ndark'] != h['nbodies'] or h['pad'] != 0:
    sys.exit('header %s' % (h,))
d = np.frombuffer(data, dark, offset=32)
if len(d) != h['nbodies']:
    sys.exit('%d particles for nbodies %d' % (len(d), h['nbodies']))
with open(path + '.iord') as f:
    count = int(f.readline())
    ids = np.array(f.read().split(), dtype=np.uint64)
if count != len(d) or len(ids) != count:
    sys.exit('.iord count %d with %d IDs for %d particles' % (count, len(ids), len(d)))
rows = np.column_stack([d['pos'], d['vel'], d['mass'], d['eps'], d['phi']]).astype('<f4')
np.array([h['time']], '<f8').tofile(path + '.time')
rows.tofile(path + '.rows')
ids.astype('<u8').tofile(path + '.ids')
)";

// argv: PATH E SEED NGAS NDARK NSTAR. Writes a Tipsy file of random particles and PATH.iord as pynbody's
// ASCII arrays are (the count, then np.savetxt's '%d' lines); PATH.want gets the time and then x, y, z,
// vx, vy, vz, mass of each particle as '<f8', PATH.wantids the IDs as '<u8'.
constexpr const char* kWriteScript = R"(
path, e, seed = sys.argv[1], sys.argv[2], int(sys.argv[3])
counts = [int(c) for c in sys.argv[4:7]]
header, gas, dark, star = dtypes(e)
rng = np.random.default_rng(seed)
h = np.zeros(1, header)
h['time'], h['nbodies'], h['ndim'] = rng.uniform(0, 10), sum(counts), 3
h['nsph'], h['ndark'], h['nstar'] = counts
families = []
for dtype, n in zip((gas, dark, star), counts):
    p = np.zeros(n, dtype)
    for name in dtype.names:
        p[name] = rng.normal(0, 1, p[name].shape)
    p['mass'] = rng.uniform(1e-6, 1, n)
    families.append(p)
with open(path, 'wb') as f:
    f.write(h.tobytes())
    for p in families:
        f.write(p.tobytes())
ids = rng.integers(0, 2**63, sum(counts), dtype=np.uint64)
with open(path + '.iord', 'w') as f:
    f.write('%d\n' % len(ids))
    np.savetxt(f, ids, fmt='%d')
want = [np.array([h['time'][0]], '<f8')]
for p in families:
    want.append(np.column_stack([p['pos'], p['vel'], p['mass']]).astype('<f8').ravel())
np.concatenate(want).tofile(path + '.want')
ids.astype('<u8').tofile(path + '.wantids')
)";

class TipsyNumpy : public ::testing::Test {
 protected:
  void SetUp() override {
    m_python = testing::python_with("import numpy");
    if (m_python.empty()) GTEST_SKIP() << "skipped: python3-numpy not installed (scripts/install-deps)";
  }

  void run_python(const char* script, const std::vector<std::string>& arguments) const {
    testing::run_python(m_python, std::string(kDtypes) + script, arguments);
  }

  std::string m_python;
  testing::TestRng m_rng;
  testing::TempDir m_dir;
};

TEST_F(TipsyNumpy, NumpyReadsOurFilesWithTheDocumentedDtypes) {
  const auto state = testing::random_particles(m_rng, m_rng.uniform_int(1, 3000));
  std::uniform_int_distribution<std::uint64_t> any;
  std::vector<std::uint64_t> ids(state.size());
  for (auto& id : ids) id = any(m_rng.engine());
  std::vector<double> potential(state.size());
  for (double& phi : potential) phi = static_cast<double>(m_rng.uniform(-5.0f, 0.0f));
  StateExtras extras;
  extras.ids = &ids;
  extras.time = static_cast<double>(m_rng.uniform(0.0f, 100.0f)) + 1e-9;
  extras.softening = static_cast<double>(m_rng.uniform(1e-3f, 0.1f));
  extras.potential = &potential;
  for (const TipsyByteOrder order : {TipsyByteOrder::Standard, TipsyByteOrder::Native}) {
    SCOPED_TRACE(to_string(order));
    const std::string file = m_dir.file(order == TipsyByteOrder::Standard ? "ours.std" : "ours.bin");
    save_tipsy(check_output_path("test", file), state, extras, order);
    ASSERT_NO_FATAL_FAILURE(run_python(kReadScript, {file, order == TipsyByteOrder::Standard ? ">" : "<"}));
    EXPECT_EQ(testing::values_in_file<double>(file + ".time"), std::vector<double>{extras.time});
    const auto rows = testing::values_in_file<float>(file + ".rows");
    ASSERT_EQ(rows.size(), state.size() * 9);
    for (std::size_t i = 0; i < state.size(); ++i) {
      const float want[] = {state[i].x,
                            state[i].y,
                            state[i].z,
                            state[i].vx,
                            state[i].vy,
                            state[i].vz,
                            state[i].mass,
                            static_cast<float>(*extras.softening),
                            static_cast<float>(potential[i])};
      ASSERT_EQ(std::memcmp(rows.data() + 9 * i, want, sizeof want), 0) << "particle " << i;
    }
    EXPECT_EQ(testing::values_in_file<std::uint64_t>(file + ".ids"), ids);
  }
}

TEST_F(TipsyNumpy, FilesNumpyWritesLoadWithTheValuesNumpyHolds) {
  std::uniform_int_distribution<std::uint32_t> any_seed;
  for (const char* e : {">", "<"}) {
    SCOPED_TRACE(e);
    const int ngas = m_rng.uniform_int(0, 500), ndark = m_rng.uniform_int(0, 500),
              nstar = m_rng.uniform_int(1, 500);
    const std::string file = m_dir.file(std::string(e) == ">" ? "numpy.std" : "numpy.bin");
    ASSERT_NO_FATAL_FAILURE(
        run_python(kWriteScript, {file, e, std::to_string(any_seed(m_rng.engine())), std::to_string(ngas),
                                  std::to_string(ndark), std::to_string(nstar)}));
    const StateContents read = load_tipsy(file);
    EXPECT_EQ(read.format, std::string(e) == ">" ? "tipsy" : "tipsy-native");
    const auto want = testing::values_in_file<double>(file + ".want");
    ASSERT_EQ(want.size(), 1 + read.records.size() * kFieldsPerParticle);
    EXPECT_EQ(read.time, want[0]);
    EXPECT_EQ(std::memcmp(read.records.data(), want.data() + 1, read.records.size() * sizeof(ParticleF64)), 0)
        << "the records are not the values NumPy wrote";
    EXPECT_TRUE(read.ids_from_file);
    EXPECT_EQ(read.ids, testing::values_in_file<std::uint64_t>(file + ".wantids"));
  }
}

}  // namespace
}  // namespace coalesce
