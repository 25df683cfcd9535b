// .npy states checked against NumPy itself: files np.save wrote (float32 and float64, both byte orders, C
// and Fortran order) load with the values NumPy holds, and the files save_npy writes load in np.load with
// ours, byte for byte what np.save would write. Skips, saying so, where python3-numpy is missing.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "sim/npy.h"
#include "tests/support/process.h"
#include "tests/support/python.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

// argv: folder, rows. Reads folder/values.f8 (rows x 7 little-endian doubles, C order) and writes, for
// every dtype x order, NAME.npy with np.save (two more with format.write_array at versions 2.0 and 3.0)
// and NAME.values: the values NumPy holds in that array, as little-endian doubles in C order.
constexpr const char* kSaveScript = R"(
import sys
import numpy as np
folder, rows = sys.argv[1], int(sys.argv[2])
with open(folder + '/values.f8', 'rb') as f:
    base = np.frombuffer(f.read(), dtype='<f8').reshape(rows, 7)
def save(name, array, version=None):
    path = folder + '/' + name
    if version is None:
        np.save(path + '.npy', array)
    else:
        with open(path + '.npy', 'wb') as f:
            np.lib.format.write_array(f, array, version=version)
    with open(path + '.values', 'wb') as f:
        f.write(array.astype('<f8').tobytes(order='C'))
for descr in ('<f4', '>f4', '<f8', '>f8'):
    for order in ('C', 'F'):
        array = base.astype(descr)
        array = np.asfortranarray(array) if order == 'F' else np.ascontiguousarray(array)
        if array.dtype.str != descr or array.flags.f_contiguous != (order == 'F'):
            sys.exit('numpy did not make %s %s' % (descr, order))
        save(descr[0].replace('<', 'le').replace('>', 'be') + descr[1:] + order, array)
save('be-f8-F-v2', np.asfortranarray(base.astype('>f8')), (2, 0))
save('le-f4-C-v3', base.astype('<f4'), (3, 0))
)";

// argv: rows, then PATH DESCR pairs. Each file must load in np.load as DESCR, (rows, 7), C order, and be
// byte for byte what np.save writes for that array; PATH.values gets its values as written.
constexpr const char* kLoadScript = R"(
import io
import sys
import numpy as np
rows = int(sys.argv[1])
for path, descr in zip(sys.argv[2::2], sys.argv[3::2]):
    array = np.load(path)
    if array.dtype.str != descr or array.shape != (rows, 7) or not array.flags.c_contiguous:
        sys.exit('%s: np.load gives %s %s, C order %s' % (path, array.dtype.str, array.shape, array.flags.c_contiguous))
    again = io.BytesIO()
    np.save(again, array)
    with open(path, 'rb') as f:
        if f.read() != again.getvalue():
            sys.exit('%s: not what np.save writes for the array np.load read from it' % path)
    with open(path + '.values', 'wb') as f:
        f.write(array.tobytes())
)";

class NpyNumpy : public ::testing::Test {
 protected:
  void SetUp() override {
    m_python = testing::python_with("import numpy");
    if (m_python.empty()) GTEST_SKIP() << "skipped: python3-numpy not installed (scripts/install-deps)";
  }

  void run_python(const char* script, const std::vector<std::string>& arguments) const {
    testing::run_python(m_python, script, arguments);
  }

  std::string m_python;
  testing::TestRng m_rng;
  testing::TempDir m_dir;
};

TEST_F(NpyNumpy, FilesNumpySavedLoadWithTheValuesNumpyHolds) {
  const int rows = m_rng.uniform_int(2, 2000);  // 2 or more: NumPy writes a one-row array as C order
  std::size_t inexact = 0;
  const auto values = testing::random_particles_f64(m_rng, rows, 0.5, inexact);
  std::ofstream(m_dir.file("values.f8"), std::ios::binary)
      .write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(rows * sizeof(ParticleF64)));
  ASSERT_NO_FATAL_FAILURE(run_python(kSaveScript, {m_dir.path().string(), std::to_string(rows)}));

  // NumPy's own float32 rounding of the values, for what our fp32 records of its float64 files must be.
  const auto numpy_floats = testing::values_in_file<ParticleF64>(m_dir.file("lef4C.values"));
  std::vector<Particle> numpy_fp32(numpy_floats.size());
  std::size_t numpy_changed = 0;
  for (std::size_t e = 0; e < numpy_floats.size() * 7; ++e) {
    (&numpy_fp32[e / 7].x)[e % 7] = static_cast<float>((&numpy_floats[e / 7].x)[e % 7]);  // exact: a float
    numpy_changed += (&numpy_floats[e / 7].x)[e % 7] != (&values[e / 7].x)[e % 7];
  }
  EXPECT_EQ(numpy_changed, inexact) << "NumPy's rounding changed the values a float cannot hold";

  for (const std::string name : {"lef4C", "lef4F", "bef4C", "bef4F", "lef8C", "lef8F", "bef8C", "bef8F",
                                 "be-f8-F-v2", "le-f4-C-v3"}) {
    SCOPED_TRACE(name);
    const NpyState state = load_npy_state(m_dir.file(name + ".npy"));
    const bool f8 = name.find("f8") != std::string::npos;
    EXPECT_EQ(state.source.scalar, f8 ? NpyScalar::Float64 : NpyScalar::Float32);
    EXPECT_EQ(state.source.byte_swapped, name[0] == 'b');
    EXPECT_EQ(state.source.fortran_order, name.find('F') != std::string::npos);
    const auto numpy_values = testing::values_in_file<ParticleF64>(m_dir.file(name + ".values"));
    EXPECT_TRUE(testing::bitwise_equal(state.records, numpy_values)) << "not the values NumPy holds";
    EXPECT_TRUE(testing::bitwise_equal(state.records, f8 ? values : numpy_floats));
    EXPECT_TRUE(testing::bitwise_equal(npy_records<Precision::Fp32>(state), numpy_fp32))
        << "fp32 records differ from NumPy's astype('<f4')";
    EXPECT_EQ(state.inexact_in_fp32, f8 ? numpy_changed : 0u);
  }
}

TEST_F(NpyNumpy, FilesWeSaveLoadInNumpyWithTheExactValues) {
  const int rows = m_rng.uniform_int(1, 3000);
  std::size_t inexact = 0;
  const auto doubles = testing::random_particles_f64(m_rng, rows, 0.5, inexact);
  const auto floats = testing::random_particles(m_rng, rows);
  const std::string f8 = m_dir.file("ours-f8.npy"), f4 = m_dir.file("ours-f4.npy");
  save_npy(check_output_path("test", f8), doubles);
  save_npy(check_output_path("test", f4), floats);
  ASSERT_NO_FATAL_FAILURE(run_python(kLoadScript, {std::to_string(rows), f8, "<f8", f4, "<f4"}));
  EXPECT_TRUE(testing::bitwise_equal(testing::values_in_file<ParticleF64>(f8 + ".values"), doubles));
  const std::string float_bytes = testing::read_file(f4 + ".values");
  ASSERT_EQ(float_bytes.size(), floats.size() * sizeof(Particle));
  EXPECT_EQ(std::memcmp(float_bytes.data(), floats.data(), float_bytes.size()), 0);
}

}  // namespace
}  // namespace coalesce
