// The superblock's fields as the HDF5 file format specification lays them out: versions 0 and 1 put the
// base, free-space, end-of-file and driver addresses after 16 (v0) or 20 (v1) bytes of versions, sizes and
// B-tree settings; versions 2 and 3 put base, extension, end-of-file and root addresses after 4 bytes.
#include "sim/hdf5_superblock.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "sim/gadget_hdf5.h"

namespace coalesce {

namespace {

constexpr char kSignature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
constexpr std::uint64_t kFirstLaterPlace = 512;  // libhdf5 looks at byte 0, then 512, 1024, 2048, ...
constexpr std::size_t kPrefixBytes = 64;  // v1's fields up to its driver address, with 8-byte addresses

// Where libhdf5 would find the superblock; `size` when there is none.
std::uint64_t find_signature(const ReadAt& read, std::uint64_t size) {
  for (std::uint64_t at = 0; at < size && size - at >= sizeof kSignature;
       at = at == 0 ? kFirstLaterPlace : at * 2) {
    char bytes[sizeof kSignature];
    read(at, bytes, sizeof bytes);
    if (std::memcmp(bytes, kSignature, sizeof bytes) == 0) return at;
    if (at > size / 2) break;  // the next place is past the end (and doubling could wrap)
  }
  return size;
}

// A little-endian address of `width` bytes; all ones is HDF5's undefined address.
std::uint64_t address(const unsigned char* at, unsigned width, bool* undefined) {
  std::uint64_t value = 0;
  bool all_ones = true;
  for (unsigned i = 0; i < width; ++i) {
    value |= std::uint64_t{at[i]} << (8 * i);
    all_ones = all_ones && at[i] == 0xff;
  }
  *undefined = all_ones;
  return value;
}

struct Superblock {
  unsigned version = 0;
  std::uint64_t base = 0;  // the base address as stored
  std::uint64_t end = 0;   // the end-of-file address as stored
  bool end_undefined = false;
};

Superblock parse(const std::string& name, const unsigned char* prefix, std::size_t available) {
  Superblock sb;
  const auto fail = [&](const std::string& problem) {
    throw Hdf5Error(name + ": its HDF5 superblock " + problem +
                    "; expected an HDF5 file libhdf5 1.10 reads (superblock version 0 to 3, 2-, 4- or 8-byte "
                    "addresses): is it damaged, or cut short?");
  };
  if (available < 10) fail("is cut short");
  sb.version = prefix[8];
  if (sb.version > 3) fail("is of version " + std::to_string(sb.version));
  const unsigned width = sb.version < 2 ? prefix[13] : prefix[9];
  if (width != 2 && width != 4 && width != 8) fail("has " + std::to_string(width) + "-byte addresses");
  const std::size_t first = sb.version == 0 ? 24 : sb.version == 1 ? 28 : 12;  // the base address
  if (available < first + 3 * width) fail("is cut short");
  bool base_undefined = false;
  sb.base = address(prefix + first, width, &base_undefined);
  sb.end = address(prefix + first + 2 * width, width, &sb.end_undefined);
  return sb;
}

}  // namespace

std::uint64_t hdf5_data_end(const std::string& name, const ReadAt& read, std::uint64_t size) {
  const std::uint64_t at = find_signature(read, size);
  if (at == size)
    throw Hdf5Error(name +
                    ": not a readable HDF5 file (file signature not found at byte 0, 512, 1024 or a later "
                    "power of two); expected a GADGET-4/AREPO HDF5 snapshot");
  std::array<unsigned char, kPrefixBytes> prefix{};
  const std::size_t available = static_cast<std::size_t>(std::min<std::uint64_t>(kPrefixBytes, size - at));
  read(at, prefix.data(), available);
  const Superblock sb = parse(name, prefix.data(), available);
  // libhdf5 moves the base to where it found the superblock and the end-of-file address with it.
  if (sb.end_undefined || sb.end < sb.base || sb.end - sb.base > size - at)
    throw Hdf5Error(name + ": its HDF5 superblock says its data end at byte " +
                    (sb.end_undefined   ? std::string("(undefined)")
                     : sb.end < sb.base ? "(before its base address)"
                                        : std::to_string(sb.end - sb.base + at)) +
                    " but the file has " + std::to_string(size) +
                    " bytes; expected all of the file's data (is it cut short? copy it again)");
  return sb.end - sb.base + at;
}

}  // namespace coalesce
