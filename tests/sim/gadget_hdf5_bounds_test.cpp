// GADGET HDF5 files that hold more than they declare are bounded (docs/reliability.md, "Hostile GADGET HDF5
// files"): a gzip chunk that inflates past its declared size is refused in one line while the decoding
// process stays near the size it started at; a file is read only up to its superblock's end-of-file address,
// so padding past it is never read (nor counted against kMaxGadgetFileBytes), and a file whose address lies
// past its end is refused before libhdf5 sees it. Superblock versions 0 to 3, with and without a user block.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/gadget_hdf5.h"
#include "sim/hdf5_image.h"
#include "tests/support/hdf5_edit.h"
#include "tests/support/process.h"
#include "tests/support/python.h"
#include "tests/support/scratch_files.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

namespace fs = std::filesystem;

constexpr long kMiB = 1 << 20;

// argv: path, values file (rows x 7 '<f8'), ids file (rows '<u8'), bomb dataset ('-': none), bomb MiB.
// PartType1 with each dataset one gzip chunk (Velocities also shuffled and fletcher32-checked); the bomb's
// chunk is then replaced by a gzip stream of that many MiB of zeros, as a hostile tester made one.
constexpr const char* kSnapshotScript = R"(
import sys, zlib
import h5py
import numpy as np
path, bomb, mib = sys.argv[1], sys.argv[4], int(sys.argv[5])
values = np.fromfile(sys.argv[2], dtype='<f8').reshape(-1, 7)
ids = np.fromfile(sys.argv[3], dtype='<u8')
n = len(values)
with h5py.File(path, 'w') as f:
    h = f.create_group('Header').attrs
    h['NumPart_ThisFile'] = np.array([0, n, 0, 0, 0, 0], dtype='<u4')
    h['MassTable'] = np.zeros(6, dtype='<f8')
    h['Time'] = 0.5
    g = f.create_group('PartType1')
    g.create_dataset('Coordinates', data=values[:, 0:3], chunks=(n, 3), compression='gzip')
    g.create_dataset('Velocities', data=values[:, 3:6], chunks=(n, 3), compression='gzip', shuffle=True,
                     fletcher32=True)
    g.create_dataset('Masses', data=values[:, 6], chunks=(n,), compression='gzip')
    g.create_dataset('ParticleIDs', data=ids, chunks=(n,), compression='gzip')
    if bomb != '-':
        deflate = zlib.compressobj(6)
        zeros = bytes(1 << 20)
        blob = b''.join([deflate.compress(zeros) for _ in range(mib)] + [deflate.flush()])
        g[bomb].id.write_direct_chunk((0,) * g[bomb].ndim, blob)
)";

long status_kib(const char* field) {  // a "Field:  N kB" line of /proc/self/status
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::string(field).size()));
  return -1;
}

// What became of load_gadget_hdf5(path) in a fresh process, whose reaped children are only the decoder.
struct IsolatedLoad {
  std::string error;   // the refusal's line, "" when loaded
  long start_kib = 0;  // the process's resident size before the load (the decoder starts with as much)
  long decoder_peak_kib = 0;
};

IsolatedLoad load_in_fresh_process(const std::string& path) {
  int ends[2];
  if (::pipe(ends) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(ends[0]);
    std::ostringstream out;
    out << status_kib("VmRSS:") << ' ';
    std::string error;
    try {
      load_gadget_hdf5(path);
    } catch (const std::exception& e) {
      error = e.what();
    }
    rusage children{};
    ::getrusage(RUSAGE_CHILDREN, &children);
    out << children.ru_maxrss << ' ' << error;
    const std::string text = out.str();
    const ssize_t put = ::write(ends[1], text.data(), text.size());
    ::_exit(put == static_cast<ssize_t>(text.size()) ? 0 : 1);
  }
  ::close(ends[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t got; (got = ::read(ends[0], buffer, sizeof buffer)) > 0;) text.append(buffer, got);
  ::close(ends[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  IsolatedLoad load;
  std::istringstream in(text);
  in >> load.start_kib >> load.decoder_peak_kib;
  std::getline(in >> std::ws, load.error);
  return load;
}

// Bytes this process has read through read(2) and the like (/proc/self/io's rchar); -1 where unreadable.
long long bytes_read_so_far() {
  std::ifstream io("/proc/self/io");
  for (std::string line; std::getline(io, line);)
    if (line.rfind("rchar:", 0) == 0) return std::stoll(line.substr(6));
  return -1;
}

class GadgetHdf5Bounds : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(open_hdf5_objects(), 0) << "an HDF5 object was left open"; }

  std::string path(const std::string& name) const { return m_dir.file(name); }

  // A snapshot of n random particles by save_gadget_hdf5, copied by libhdf5 into a file of superblock
  // `version` (0 to 3) after a user block of `userblock` bytes (0, or a power of two from 512).
  std::string snapshot(const std::string& name, int n, int version, hsize_t userblock) {
    m_particles = testing::random_particles(m_rng, n);
    const std::string saved = path(name + ".saved");
    save_gadget_hdf5(check_output_path("test", saved), m_particles, StateExtras{});
    const Hdf5PropertyList create(H5Pcreate(H5P_FILE_CREATE)), access(H5Pcreate(H5P_FILE_ACCESS));
    if (userblock) H5Pset_userblock(create.get(), userblock);
    if (version == 1) H5Pset_istore_k(create.get(), 64);  // a B-tree setting only version 1 stores
    if (version >= 2) {
      const H5F_libver_t bound = version == 2 ? H5F_LIBVER_V18 : H5F_LIBVER_V110;
      H5Pset_libver_bounds(access.get(), bound, bound);
    }
    {
      const Hdf5File from(H5Fopen(saved.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT));
      const Hdf5File to(H5Fcreate(path(name).c_str(), H5F_ACC_TRUNC, create.get(), access.get()));
      EXPECT_TRUE(from.valid() && to.valid());
      for (const char* object : {"Header", "PartType1"})
        EXPECT_GE(H5Ocopy(from.get(), object, to.get(), object, H5P_DEFAULT, H5P_DEFAULT), 0) << object;
    }
    const std::string bytes = testing::read_file(path(name));
    EXPECT_EQ(static_cast<int>(static_cast<unsigned char>(bytes.at(userblock + 8))), version)
        << "libhdf5 wrote another superblock version";
    return path(name);
  }

  // Loading `file` fails with one line that starts with the file's name and contains `needle`.
  static void expect_rejects(const std::string& file, const std::string& needle) {
    try {
      const StateContents contents = load_gadget_hdf5(file);
      ADD_FAILURE() << "accepted " << file << " (" << contents.records.size() << " particles)";
    } catch (const UsageError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(file + ": ", 0), 0u) << what;
      EXPECT_NE(what.find(needle), std::string::npos) << "no '" << needle << "' in: " << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
  }

  testing::TestRng m_rng;
  testing::TempDir m_dir;
  std::vector<Particle> m_particles;
};

// A tester's 2.4 MB file inflated one chunk to 2000 MiB in the decoder and loaded the zeros without a word.
// Now the chunk is refused in one line once it passes its declared size, so the decoder never grows by the
// bomb's size (256 MiB or more here; a margin of 64 MiB for libhdf5 and the records), and a file of the
// same datasets whose chunks inflate to their size loads exactly.
TEST_F(GadgetHdf5Bounds, AGzipBombIsRefusedAndTheDecoderStaysSmall) {
  const std::string python = testing::python_with("import h5py, numpy");
  if (python.empty()) GTEST_SKIP() << "skipped: python3-h5py not installed (scripts/install-deps)";
  const int n = m_rng.uniform_int(32, 2000);  // 256 bytes a chunk or more: h5py can store the bomb's size
  std::size_t inexact = 0;
  const auto values = testing::random_particles_f64(m_rng, n, 0.5, inexact);
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(n));
  for (auto& id : ids) id = m_rng.engine()() >> 1;
  std::ofstream(path("values.f8"), std::ios::binary)
      .write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * 56));
  std::ofstream(path("ids.u8"), std::ios::binary)
      .write(reinterpret_cast<const char*>(ids.data()), static_cast<std::streamsize>(ids.size() * 8));

  const std::string good = path("good.hdf5");
  ASSERT_NO_FATAL_FAILURE(
      testing::run_python(python, kSnapshotScript, {good, path("values.f8"), path("ids.u8"), "-", "0"}));
  const StateContents contents = load_gadget_hdf5(good);
  EXPECT_TRUE(testing::bitwise_equal(contents.records, values));
  EXPECT_EQ(contents.ids, ids);

  const char* const kTargets[] = {"Coordinates", "Masses", "ParticleIDs"};  // Velocities: fletcher32 first
  const std::string target = kTargets[m_rng.uniform_int(0, 2)];
  const int mib = m_rng.uniform_int(256, 384);
  const std::string bomb = path("bomb.hdf5");
  ASSERT_NO_FATAL_FAILURE(testing::run_python(
      python, kSnapshotScript, {bomb, path("values.f8"), path("ids.u8"), target, std::to_string(mib)}));
  const IsolatedLoad load = load_in_fresh_process(bomb);
  SCOPED_TRACE(target + " inflating to " + std::to_string(mib) + " MiB");
  EXPECT_EQ(
      load.error.rfind(bomb + ": PartType1/" + target + " has a gzip chunk (row 0) that inflates past", 0),
      0u)
      << load.error;
  EXPECT_EQ(load.error.find('\n'), std::string::npos) << load.error;
  ASSERT_GT(load.start_kib, 0) << "no VmRSS in /proc/self/status";
  EXPECT_LT(load.decoder_peak_kib - load.start_kib, 64 * kMiB / 1024)
      << "the decoder grew from " << load.start_kib << " KiB to " << load.decoder_peak_kib << " KiB";
}

// A file padded past its HDF5 data (garbage, then a hole past kMaxGadgetFileBytes) loads exactly, and this
// process reads no more than the data: the padding is never read, whatever its size.
TEST_F(GadgetHdf5Bounds, PaddingPastTheDataIsNeverRead) {
  const int version = m_rng.uniform_int(0, 3);
  const hsize_t userblock = m_rng.uniform_int(0, 1) ? hsize_t{512} << m_rng.uniform_int(0, 3) : 0;
  SCOPED_TRACE("superblock version " + std::to_string(version) + ", user block " + std::to_string(userblock));
  const std::string file = snapshot("padded.hdf5", m_rng.uniform_int(1, 3000), version, userblock);
  const auto data_bytes = static_cast<long long>(fs::file_size(file));
  std::ofstream(file, std::ios::binary | std::ios::app)
      << testing::random_bytes(m_rng, m_rng.uniform_int(static_cast<int>(kMiB), static_cast<int>(4 * kMiB)));
  fs::resize_file(file,
                  kMaxGadgetFileBytes + static_cast<std::uint64_t>(m_rng.uniform_int(1, kMiB)));  // a hole

  const long long before = bytes_read_so_far();
  if (before < 0) GTEST_SKIP() << "skipped: /proc/self/io is not readable here";
  const StateContents contents = load_gadget_hdf5(file);
  const long long read = bytes_read_so_far() - before;
  std::vector<ParticleF64> expected;
  for (const Particle& p : m_particles) expected.push_back(record_cast<double>(p));
  EXPECT_TRUE(testing::bitwise_equal(contents.records, expected));
  // The data, and the records and IDs back from the decoder through the pipe (64 bytes a particle).
  const long long records = static_cast<long long>(m_particles.size()) * 64;
  EXPECT_LE(read, data_bytes + records + 64 * 1024) << "read " << read << " bytes of " << data_bytes;
}

// A superblock whose end-of-file address lies past the file's end (a file cut short) is refused, naming
// both sizes, and so is one of a version libhdf5 1.10 does not read.
TEST_F(GadgetHdf5Bounds, DataEndingPastTheFileAreRefused) {
  const int version = m_rng.uniform_int(0, 3);
  const hsize_t userblock = m_rng.uniform_int(0, 1) ? hsize_t{512} << m_rng.uniform_int(0, 3) : 0;
  SCOPED_TRACE("superblock version " + std::to_string(version) + ", user block " + std::to_string(userblock));
  const std::string file = snapshot("cut.hdf5", m_rng.uniform_int(1, 3000), version, userblock);
  const std::string bytes = testing::read_file(file);
  const auto cut = static_cast<std::size_t>(
      m_rng.uniform_int(static_cast<int>(userblock) + 100, static_cast<int>(bytes.size()) - 1));
  std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes.substr(0, cut);
  expect_rejects(file, "its HDF5 superblock says its data end at byte " + std::to_string(bytes.size()) +
                           " but the file has " + std::to_string(cut) + " bytes");

  std::string newer = bytes;
  newer[userblock + 8] = static_cast<char>(m_rng.uniform_int(4, 255));
  std::ofstream(file, std::ios::binary | std::ios::trunc) << newer;
  expect_rejects(file, "its HDF5 superblock is of version " +
                           std::to_string(static_cast<unsigned char>(newer[userblock + 8])));
}

}  // namespace
}  // namespace coalesce
