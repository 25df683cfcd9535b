// save_npy / load_npy: the N x 7 float32 state as NumPy writes and reads it.
#include "sim/npy.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

#include "sim/npy_header.h"
#include "sim/scene.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.cpp reads and writes '<f4' by memcpy and needs a little-endian host"
#endif

namespace coalesce {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;
constexpr const char* kFieldNames[kFieldsPerParticle] = {"x", "y", "z", "vx", "vy", "vz", "mass"};

[[noreturn]] void fail(const std::string& path, const std::string& message) {
  throw NpyError(path + ": " + message);
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

}  // namespace

void save_npy(const std::string& path, const std::vector<Particle>& particles) {
  std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                     std::to_string(particles.size()) + ", " + std::to_string(kFieldsPerParticle) + "), }";
  // Magic (6) + version (2) + length (2) + dict + '\n' is padded with spaces to a multiple of 64, as NumPy
  // does.
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot open for writing; expected a writable path");
  const unsigned char version_and_length[4] = {1, 0, static_cast<unsigned char>(dict.size() & 0xff),
                                               static_cast<unsigned char>(dict.size() >> 8)};
  out.write(kMagic, kMagicSize);
  out.write(reinterpret_cast<const char*>(version_and_length), 4);
  out.write(dict.data(), static_cast<std::streamsize>(dict.size()));
  out.write(reinterpret_cast<const char*>(particles.data()),
            static_cast<std::streamsize>(particles.size() * sizeof(Particle)));
  out.flush();
  if (!out)
    fail(path,
         "write failed (disk full?); expected to write " + std::to_string(particles.size()) + " particles");
}

std::vector<Particle> load_npy(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open state file; expected a readable .npy file");
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto* u = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
    fail(path, "not a NumPy file (bad magic); expected a .npy file written by numpy.save");
  const int major = u[6], minor = u[7];
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    fail(path, "unsupported .npy version " + std::to_string(major) + "." + std::to_string(minor) +
                   "; expected 1.0, 2.0 or 3.0");
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + length_bytes) fail(path, "truncated header; expected a complete .npy file");
  const std::size_t header_len = little_endian(u + 8, static_cast<int>(length_bytes));
  const std::size_t data_offset = 8 + length_bytes + header_len;
  if (bytes.size() < data_offset) fail(path, "truncated header; expected a complete .npy file");

  std::string error;
  const auto header = parse_npy_header(bytes.substr(8 + length_bytes, header_len), error);
  if (!header)
    fail(path, "malformed header: " + error +
                   "; expected {'descr': '<f4', 'fortran_order': False, 'shape': (N, 7)}");
  if (header->descr != "<f4")
    fail(path, "dtype is '" + header->descr +
                   "'; expected '<f4' (little-endian float32): save with arr.astype('<f4')");
  if (header->fortran_order)
    fail(path, "fortran_order is True; expected False (C order): save np.ascontiguousarray(arr)");
  const auto& shape = header->shape;
  if (shape.size() != 2 || shape[1] != kFieldsPerParticle || shape[0] <= 0)
    fail(path, "shape is " + shape_text(shape) + "; expected (N, 7) with N > 0 (x, y, z, vx, vy, vz, mass)");
  if (shape[0] > kMaxSceneParticles)
    fail(path, "shape is " + shape_text(shape) + "; expected N <= " + std::to_string(kMaxSceneParticles));

  const std::size_t n = static_cast<std::size_t>(shape[0]);
  const std::size_t expected = data_offset + n * sizeof(Particle);
  if (bytes.size() != expected)
    fail(path, "file is " + std::to_string(bytes.size()) + " bytes; expected " + std::to_string(expected) +
                   " for shape " + shape_text(shape) + " (truncated or trailing data)");
  std::vector<Particle> particles(n);
  std::memcpy(particles.data(), bytes.data() + data_offset, n * sizeof(Particle));
  for (std::size_t i = 0; i < n; ++i) {
    const float* f = &particles[i].x;
    for (int k = 0; k < kFieldsPerParticle; ++k)
      if (!std::isfinite(f[k]))
        fail(path, "non-finite value (" + std::to_string(f[k]) + ") at particle " + std::to_string(i) +
                       ", field " + kFieldNames[k] + "; expected finite values only");
  }
  return particles;
}

}  // namespace coalesce
