// Writes .npy files byte by byte for the CLI tests, good and deliberately broken, independently of
// sim/npy.cpp so the tests do not trust the code they check. Header-only (tests build *_test.cpp only).
#pragma once

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace coalesce::testing {

// A version 1.0 file: magic, header dict padded with spaces to a multiple of 64 bytes, then `payload`.
inline void write_npy(const std::string& path, const std::string& descr, const std::string& shape,
                      const std::vector<char>& payload) {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  const std::size_t unpadded = 10 + header.size() + 1;
  header += std::string((64 - unpadded % 64) % 64, ' ') + "\n";
  std::ofstream out(path, std::ios::binary);
  out.write("\x93NUMPY\x01\x00", 8);
  const unsigned short length = static_cast<unsigned short>(header.size());
  const char length_bytes[2] = {static_cast<char>(length & 0xff), static_cast<char>(length >> 8)};
  out.write(length_bytes, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(payload.data(), static_cast<std::streamsize>(payload.size()));
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
