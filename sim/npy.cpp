// save_npy / load_npy: the N x 7 float32 state as NumPy writes and reads it.
#include "sim/npy.h"

#include <cmath>
#include <cstring>

#include "sim/input_file.h"
#include "sim/limits.h"
#include "sim/npy_header.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.cpp reads and writes '<f4' by memcpy and needs a little-endian host"
#endif

namespace coalesce {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;
constexpr const char* kFieldNames[kFieldsPerParticle] = {"x", "y", "z", "vx", "vy", "vz", "mass"};

[[noreturn]] void fail(const std::string& name, const std::string& message) {
  throw NpyError(name + ": " + message);
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::uint32_t little_endian(const unsigned char* p, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Where the records start and how many there are: checks everything up to the data against `size`.
struct Layout {
  std::uint64_t data_offset = 0;
  std::size_t particles = 0;
};

Layout read_layout(const std::string& name, std::uint64_t size, const ReadAt& read) {
  unsigned char start[12] = {};
  if (size < 10) fail(name, "not a NumPy file (" + std::to_string(size) + " bytes); expected a .npy file");
  read(0, start, 8);
  if (std::memcmp(start, kMagic, kMagicSize) != 0)
    fail(name, "not a NumPy file (bad magic); expected a .npy file written by numpy.save");
  const int major = start[6], minor = start[7];
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    fail(name, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor) +
                   "; expected 1.0, 2.0 or 3.0");
  const int length_bytes = major == 1 ? 2 : 4;
  if (size < 8u + length_bytes) fail(name, "truncated header; expected a complete .npy file");
  read(8, start + 8, static_cast<std::size_t>(length_bytes));
  const std::uint32_t header_len = little_endian(start + 8, length_bytes);
  if (header_len > kMaxNpyHeaderBytes)
    fail(name, "header is " + std::to_string(header_len) + " bytes; expected at most " +
                   std::to_string(kMaxNpyHeaderBytes) + " (is it a state file?)");
  Layout layout;
  layout.data_offset = 8u + length_bytes + header_len;
  if (size < layout.data_offset) fail(name, "truncated header; expected a complete .npy file");

  std::string dict(header_len, '\0');
  read(8u + length_bytes, dict.data(), dict.size());
  std::string error;
  const auto header = parse_npy_header(dict, error);
  if (!header)
    fail(name, "malformed header: " + error +
                   "; expected {'descr': '<f4', 'fortran_order': False, 'shape': (N, 7)}");
  if (header->descr != "<f4")
    fail(name, "dtype is '" + header->descr +
                   "'; expected '<f4' (little-endian float32): save with arr.astype('<f4')");
  if (header->fortran_order)
    fail(name, "fortran_order is True; expected False (C order): save np.ascontiguousarray(arr)");
  const auto& shape = header->shape;
  if (shape.size() != 2 || shape[1] != kFieldsPerParticle || shape[0] <= 0)
    fail(name, "shape is " + shape_text(shape) + "; expected (N, 7) with N > 0 (x, y, z, vx, vy, vz, mass)");
  if (shape[0] > kMaxParticles)
    fail(name, "shape is " + shape_text(shape) + "; expected N <= " + std::to_string(kMaxParticles));
  layout.particles = static_cast<std::size_t>(shape[0]);
  // Before reading a byte of data: a 3 GB file whose header says 10 rows is refused here.
  const std::uint64_t expected = layout.data_offset + layout.particles * sizeof(Particle);
  if (size != expected)
    fail(name, "file is " + std::to_string(size) + " bytes; expected " + std::to_string(expected) +
                   " for shape " + shape_text(shape) + " (truncated or trailing data)");
  return layout;
}

void check_values(const std::string& name, const std::vector<Particle>& particles) {
  for (std::size_t i = 0; i < particles.size(); ++i) {
    const float* f = &particles[i].x;
    for (int k = 0; k < kFieldsPerParticle; ++k)
      if (!std::isfinite(f[k]))
        fail(name, "non-finite value (" + std::to_string(f[k]) + ") at particle " + std::to_string(i) +
                       ", field " + kFieldNames[k] + "; expected finite values only");
    if (!kMassRange.contains(particles[i].mass))
      fail(name, "mass " + std::to_string(particles[i].mass) + " at particle " + std::to_string(i) +
                     "; expected " + describe(kMassRange));
  }
}

}  // namespace

void save_npy(const OutputFile& file, const std::vector<Particle>& particles) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                     std::to_string(particles.size()) + ", " + std::to_string(kFieldsPerParticle) + "), }";
  // Magic (6) + version (2) + length (2) + dict + '\n', padded with spaces to a multiple of 64 as NumPy does.
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string preamble(kMagic, kMagicSize);
  preamble += {'\x01', '\x00', static_cast<char>(dict.size() & 0xff), static_cast<char>(dict.size() >> 8)};
  preamble += dict;
  const std::string_view records(reinterpret_cast<const char*>(particles.data()),
                                 particles.size() * sizeof(Particle));
  write_output(file, {preamble, records});
}

std::vector<Particle> decode_npy(const std::string& name, std::uint64_t size, const ReadAt& read) {
  const Layout layout = read_layout(name, size, read);
  std::vector<Particle> particles(layout.particles);
  read(layout.data_offset, particles.data(), layout.particles * sizeof(Particle));
  check_values(name, particles);
  return particles;
}

std::vector<Particle> load_npy(const std::string& path) {
  const InputFile file("", path);
  file.require_known_size();  // the header's shape is checked against the size before any data is read
  return decode_npy(path, file.size(), [&file](std::uint64_t offset, void* destination, std::size_t bytes) {
    file.read_at(offset, destination, bytes);
  });
}

}  // namespace coalesce
