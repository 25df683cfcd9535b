// save_gadget_hdf5: the whole snapshot built in memory by libhdf5's core driver, then written by
// write_output (temporary + rename), so a full disk fails in our code and never inside libhdf5.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "sim/gadget_hdf5.h"
#include "sim/hdf5_image.h"

namespace coalesce {

namespace {

constexpr int kTypes = 6;                    // GADGET's particle types; ours are all PartType1 (halo)
constexpr std::size_t kChunkRows = 1 << 16;  // rows converted and written per call: bounded memory beside

template <class Real>
struct FileTypes;
template <>
struct FileTypes<float> {
  static hid_t file() { return H5T_IEEE_F32LE; }
  static hid_t memory() { return H5T_NATIVE_FLOAT; }
};
template <>
struct FileTypes<double> {
  static hid_t file() { return H5T_IEEE_F64LE; }
  static hid_t memory() { return H5T_NATIVE_DOUBLE; }
};

class Builder {
 public:
  Builder(const OutputFile& file) : m_file(file) {}

  [[noreturn]] void fail(const std::string& what) const {
    const std::string reason = hdf5_reason();
    throw RuntimeFailure(m_file.shown + ": cannot build the GADGET HDF5 file in memory: " + what +
                         (reason.empty() ? "" : " (libhdf5: " + reason + ")") +
                         "; nothing was written (free memory, or save fewer particles)");
  }
  void check(herr_t status, const std::string& what) const {
    if (status < 0) fail(what);
  }

  // A scalar (count 0) or one-dimensional attribute of `count` values.
  void attribute(hid_t location, const char* name, hid_t file_type, hid_t memory_type, const void* values,
                 hsize_t count = 0) const {
    const Hdf5Dataspace space(count ? H5Screate_simple(1, &count, nullptr) : H5Screate(H5S_SCALAR));
    if (!space) fail(std::string("attribute ") + name);
    const Hdf5Attribute attribute(
        H5Acreate2(location, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT));
    if (!attribute) fail(std::string("attribute ") + name);
    check(H5Awrite(attribute.get(), memory_type, values), std::string("attribute ") + name);
  }
  void double_attribute(hid_t location, const char* name, double value) const {
    attribute(location, name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
  }
  void int_attribute(hid_t location, const char* name, int value) const {
    attribute(location, name, H5T_STD_I32LE, H5T_NATIVE_INT, &value);
  }

  Hdf5Group group(hid_t location, const char* name) const {
    Hdf5Group group(H5Gcreate2(location, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!group) fail(std::string("group ") + name);
    return group;
  }

  // A rows x columns dataset (one-dimensional for 1 column) filled by fill(first_row, rows, buffer).
  template <class Value, class Fill>
  void dataset(hid_t group, const char* name, hid_t file_type, hid_t memory_type, std::size_t rows,
               int columns, Fill fill) const {
    const hsize_t dims[2] = {rows, static_cast<hsize_t>(columns)};
    const int rank = columns == 1 ? 1 : 2;
    const Hdf5Dataspace space(H5Screate_simple(rank, dims, nullptr));
    if (!space) fail(std::string("dataset ") + name);
    const Hdf5Dataset dataset(
        H5Dcreate2(group, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    if (!dataset) fail(std::string("dataset ") + name);
    std::vector<Value> buffer(std::min(rows, kChunkRows) * static_cast<std::size_t>(columns));
    for (std::size_t first = 0; first < rows; first += kChunkRows) {
      const std::size_t count = std::min(kChunkRows, rows - first);
      fill(first, count, buffer.data());
      const hsize_t start[2] = {first, 0}, block[2] = {count, static_cast<hsize_t>(columns)};
      const Hdf5Dataspace memory(H5Screate_simple(rank, block, nullptr));
      if (!memory || H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, block, nullptr) < 0)
        fail(std::string("dataset ") + name);
      check(H5Dwrite(dataset.get(), memory_type, memory.get(), space.get(), H5P_DEFAULT, buffer.data()),
            std::string("dataset ") + name);
    }
  }

 private:
  const OutputFile& m_file;
};

template <class Real>
void write_header(const Builder& build, hid_t file, std::size_t count, const StateExtras& extras) {
  const Hdf5Group header = build.group(file, "Header");
  unsigned this_file[kTypes] = {}, total_low[kTypes] = {}, total_high[kTypes] = {};
  this_file[1] = static_cast<unsigned>(count);  // count <= kMaxParticles < 2^32
  total_low[1] = static_cast<unsigned>(count & 0xffffffffu);
  total_high[1] = static_cast<unsigned>(static_cast<std::uint64_t>(count) >> 32);
  const double mass_table[kTypes] = {};  // 0: every mass is in PartType1/Masses
  build.attribute(header.get(), "NumPart_ThisFile", H5T_STD_U32LE, H5T_NATIVE_UINT, this_file, kTypes);
  build.attribute(header.get(), "NumPart_Total", H5T_STD_U32LE, H5T_NATIVE_UINT, total_low, kTypes);
  build.attribute(header.get(), "NumPart_Total_HighWord", H5T_STD_U32LE, H5T_NATIVE_UINT, total_high, kTypes);
  build.attribute(header.get(), "MassTable", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, mass_table, kTypes);
  build.double_attribute(header.get(), "Time", extras.time);
  build.double_attribute(header.get(), "Redshift", 0.0);
  build.double_attribute(header.get(), "BoxSize", 0.0);  // no periodic box
  build.int_attribute(header.get(), "NumFilesPerSnapshot", 1);
  build.int_attribute(header.get(), "Flag_DoublePrecision", sizeof(Real) == 8 ? 1 : 0);
  if (!extras.units) return;  // unknown units: no attribute says anything about them
  // GADGET-4 keeps its parameter file's values as attributes of Parameters; G = 1 in these units.
  const Hdf5Group parameters = build.group(file, "Parameters");
  build.double_attribute(parameters.get(), "UnitLength_in_cm", extras.units->length_in_cm);
  build.double_attribute(parameters.get(), "UnitMass_in_g", extras.units->mass_in_g);
  build.double_attribute(parameters.get(), "UnitVelocity_in_cm_per_s", extras.units->velocity_in_cm_per_s());
}

template <class Real>
void write_particles(const Builder& build, hid_t file, const std::vector<ParticleRecord<Real>>& particles,
                     const StateExtras& extras) {
  const Hdf5Group type = build.group(file, "PartType1");
  const std::size_t n = particles.size();
  const hid_t file_type = FileTypes<Real>::file(), memory_type = FileTypes<Real>::memory();
  build.dataset<Real>(type.get(), "Coordinates", file_type, memory_type, n, 3,
                      [&](std::size_t first, std::size_t rows, Real* out) {
                        for (std::size_t i = 0; i < rows; ++i) {
                          const auto& p = particles[first + i];
                          out[3 * i] = p.x, out[3 * i + 1] = p.y, out[3 * i + 2] = p.z;
                        }
                      });
  build.dataset<Real>(type.get(), "Velocities", file_type, memory_type, n, 3,
                      [&](std::size_t first, std::size_t rows, Real* out) {
                        for (std::size_t i = 0; i < rows; ++i) {
                          const auto& p = particles[first + i];
                          out[3 * i] = p.vx, out[3 * i + 1] = p.vy, out[3 * i + 2] = p.vz;
                        }
                      });
  build.dataset<Real>(type.get(), "Masses", file_type, memory_type, n, 1,
                      [&](std::size_t first, std::size_t rows, Real* out) {
                        for (std::size_t i = 0; i < rows; ++i) out[i] = particles[first + i].mass;
                      });
  const bool have_ids = extras.ids && extras.ids->size() == n;
  build.dataset<std::uint64_t>(type.get(), "ParticleIDs", H5T_STD_U64LE, H5T_NATIVE_UINT64, n, 1,
                               [&](std::size_t first, std::size_t rows, std::uint64_t* out) {
                                 for (std::size_t i = 0; i < rows; ++i)
                                   out[i] = have_ids ? (*extras.ids)[first + i] : first + i;
                               });
}

template <class Real>
EncodedFile encode_records(const OutputFile& file, const std::vector<ParticleRecord<Real>>& particles,
                           const StateExtras& extras) {
  quiet_hdf5();
  const Builder build(file);
  std::string bytes;
  {
    // The core driver grows its image in steps of this: about one step for the whole file.
    const std::size_t step = particles.size() * (7 * sizeof(Real) + 8) + (std::size_t{1} << 16);
    const Hdf5File h5 = create_hdf5_image(step);
    if (!h5) build.fail("the file");
    write_header<Real>(build, h5.get(), particles.size(), extras);
    write_particles(build, h5.get(), particles, extras);
    const ssize_t open_objects = H5Fget_obj_count(h5.get(), H5F_OBJ_ALL);
    if (open_objects != 1)  // the file itself: every group, dataset and attribute handle above is closed
      throw std::logic_error(file.shown + ": " + std::to_string(open_objects - 1) +
                             " HDF5 handles left open");
    bytes = hdf5_image_bytes(h5.get());
    if (bytes.empty()) build.fail("its image");
  }
  return {"", std::move(bytes), {}};
}

}  // namespace

EncodedFile encode_gadget_hdf5(const OutputFile& file, const std::vector<Particle>& particles,
                               const StateExtras& extras) {
  return encode_records(file, particles, extras);
}

EncodedFile encode_gadget_hdf5(const OutputFile& file, const std::vector<ParticleF64>& particles,
                               const StateExtras& extras) {
  return encode_records(file, particles, extras);
}

void save_gadget_hdf5(const OutputFile& file, const std::vector<Particle>& particles,
                      const StateExtras& extras) {
  write_output(file, encode_gadget_hdf5(file, particles, extras).pieces());
}

void save_gadget_hdf5(const OutputFile& file, const std::vector<ParticleF64>& particles,
                      const StateExtras& extras) {
  write_output(file, encode_gadget_hdf5(file, particles, extras).pieces());
}

}  // namespace coalesce
