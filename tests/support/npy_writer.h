// Writes .npy files byte by byte for the tests, good and deliberately broken, independently of
// sim/npy.cpp so the tests do not trust the code they check. Header-only (tests build *_test.cpp only).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sim/particle.h"

namespace coalesce::testing {

// A file as NumPy writes it: magic, version `major`.0, the header length (2 bytes little-endian for
// version 1, 4 bytes after), the header `dict` padded with spaces and ended by '\n' to a multiple of
// 64 bytes, then `payload`. `dict` and `major` may be deliberately wrong.
inline std::string npy_file_bytes(const std::string& dict, const std::string& payload, int major = 1) {
  const std::size_t prefix = major == 1 ? 10 : 12;
  std::string header = dict;
  header.append((64 - (prefix + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
  const auto length = static_cast<std::uint32_t>(header.size());
  for (std::size_t b = 0; b < prefix - 8; ++b) bytes += static_cast<char>((length >> (8 * b)) & 0xff);
  return bytes + header + payload;
}

inline void write_npy_file(const std::string& path, const std::string& dict, const std::string& payload,
                           int major = 1) {
  std::ofstream(path, std::ios::binary) << npy_file_bytes(dict, payload, major);
}

// A version 1.0 file of `descr` and `shape` (e.g. "(4, 7)").
inline void write_npy(const std::string& path, const std::string& descr, const std::string& shape,
                      const std::vector<char>& payload) {
  write_npy_file(path, "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }",
                 std::string(payload.begin(), payload.end()));
}

// The data of an N x 7 array of `records` as a file of `descr` ('<f4', '>f4', '<f8' or '>f8') stores it:
// row after row (C order) or column after column (Fortran order), each value's bytes reversed for '>'.
// 'f4' stores each value as the float nearest it.
inline std::string npy_values_bytes(const std::vector<ParticleF64>& records, const std::string& descr,
                                    bool fortran_order) {
  const std::size_t rows = records.size(), columns = 7, width = descr[2] == '8' ? 8 : 4;
  std::string out;
  out.reserve(rows * columns * width);
  for (std::size_t e = 0; e < rows * columns; ++e) {
    const std::size_t row = fortran_order ? e % rows : e / columns;
    const std::size_t column = fortran_order ? e / rows : e % columns;
    const double value = (&records[row].x)[column];
    char bytes[8];
    if (width == 8) {
      std::memcpy(bytes, &value, 8);
    } else {
      const float narrow = static_cast<float>(value);
      std::memcpy(bytes, &narrow, 4);
    }
    if (descr[0] == '>') std::reverse(bytes, bytes + width);
    out.append(bytes, width);
  }
  return out;
}

// A whole version `major`.0 file of `records` as `descr` and order (above).
inline std::string npy_state_bytes(const std::vector<ParticleF64>& records, const std::string& descr,
                                   bool fortran_order, int major = 1) {
  return npy_file_bytes("{'descr': '" + descr + "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                            ", 'shape': (" + std::to_string(records.size()) + ", 7), }",
                        npy_values_bytes(records, descr, fortran_order), major);
}

template <class T>
std::vector<char> bytes_of(const std::vector<T>& values) {
  std::vector<char> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

// The data bytes of a version 1.0 file (everything after the header); empty if it is not one.
inline std::vector<char> npy_payload(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<char> all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (all.size() < 10 || std::memcmp(all.data(), "\x93NUMPY\x01", 7) != 0) return {};
  const std::size_t header = static_cast<unsigned char>(all[8]) | (static_cast<unsigned char>(all[9]) << 8);
  if (all.size() < 10 + header) return {};
  return std::vector<char>(all.begin() + static_cast<std::ptrdiff_t>(10 + header), all.end());
}

// The records of a state file the program saved: a version 1.0 header saying `descr` ('<f4' for float
// records, '<f8' for double ones), C order and shape (n, 7), then exactly n records; empty if it is not that.
template <class Real>
std::vector<ParticleRecord<Real>> saved_records(const std::string& path, std::size_t n) {
  std::ifstream in(path, std::ios::binary);
  const std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string descr = sizeof(Real) == 8 ? "<f8" : "<f4";
  const std::string dict =
      "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + std::to_string(n) + ", 7), }";
  const std::vector<char> payload = npy_payload(path);
  if (all.find(dict) == std::string::npos || payload.size() != n * sizeof(ParticleRecord<Real>)) return {};
  std::vector<ParticleRecord<Real>> out(n);
  std::memcpy(out.data(), payload.data(), payload.size());
  return out;
}

}  // namespace coalesce::testing
