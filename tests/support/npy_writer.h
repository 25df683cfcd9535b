// Writes .npy files byte by byte for the tests, good and deliberately broken, independently of
// sim/npy.cpp so the tests do not trust the code they check. Header-only (tests build *_test.cpp only).
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

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

}  // namespace coalesce::testing
