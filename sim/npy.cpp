// save_npy / load_npy_state: the N x 7 state as NumPy writes and reads it, and the notice of what a load
// converted. The decoder is npy_read.cpp.
#include "sim/npy.h"

#include <utility>

#include "sim/input_file.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy.cpp writes '<f4' and '<f8' by memcpy and needs a little-endian host"
#endif

namespace coalesce {

namespace {

// Magic, version 1.0, header length, then the dict padded with spaces and ended by '\n' to a multiple of
// 64 bytes as NumPy does, then the records as they lie in memory.
template <class Real>
EncodedFile encode_records(const std::vector<ParticleRecord<Real>>& records, const char* descr) {
  std::string dict = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': (" +
                     std::to_string(records.size()) + ", " + std::to_string(kFieldsPerParticle) + "), }";
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string preamble("\x93NUMPY", 6);
  preamble += {'\x01', '\x00', static_cast<char>(dict.size() & 0xff), static_cast<char>(dict.size() >> 8)};
  preamble += dict;
  const std::string_view data(reinterpret_cast<const char*>(records.data()),
                              records.size() * sizeof(ParticleRecord<Real>));
  return {"", std::move(preamble), data};
}

}  // namespace

EncodedFile encode_npy(const std::vector<Particle>& particles) {
  return encode_records(particles, "<f4");
}

EncodedFile encode_npy(const std::vector<ParticleF64>& particles) {
  return encode_records(particles, "<f8");
}

void save_npy(const OutputFile& file, const std::vector<Particle>& particles) {
  write_output(file, encode_npy(particles).pieces());
}

void save_npy(const OutputFile& file, const std::vector<ParticleF64>& particles) {
  write_output(file, encode_npy(particles).pieces());
}

std::string NpySource::descr() const {
  return std::string(byte_swapped ? ">" : "<") + (scalar == NpyScalar::Float32 ? "f4" : "f8");
}

std::string npy_notice(const NpyState& state, Precision target) {
  const NpySource& source = state.source;
  std::vector<std::string> steps;
  if (source.byte_swapped) steps.push_back("byte order swapped (big-endian)");
  if (source.fortran_order) steps.push_back("columns reordered to rows");
  if (source.scalar == NpyScalar::Float64 && target == Precision::Fp32)
    steps.push_back("float64 rounded to float32 for fp32 (" + std::to_string(state.inexact_in_fp32) + " of " +
                    std::to_string(state.records.size() * kFieldsPerParticle) + " values changed)");
  if (source.scalar == NpyScalar::Float32 && target == Precision::Fp64)
    steps.push_back("float32 widened to float64 for fp64 (exact)");
  if (steps.empty()) return {};
  std::string line = state.name + ": '" + source.descr() + "'" +
                     (source.fortran_order ? " in Fortran order" : "") + " converted on load: ";
  for (std::size_t i = 0; i < steps.size(); ++i) line += (i ? ", " : "") + steps[i];
  return line;
}

NpyState load_npy_state(const std::string& path) {
  const InputFile file("", path);
  file.require_known_size();  // the header's shape is checked against the size before any data is read
  return decode_npy_state(path, file.size(), [&file](std::uint64_t offset, void* destination, std::size_t bytes) {
    file.read_at(offset, destination, bytes);
  });
}

std::vector<Particle> load_npy(const std::string& path) {
  return npy_records<Precision::Fp32>(load_npy_state(path));
}

std::vector<Particle> decode_npy(const std::string& name, std::uint64_t size, const ReadAt& read) {
  return npy_records<Precision::Fp32>(decode_npy_state(name, size, read));
}

}  // namespace coalesce
