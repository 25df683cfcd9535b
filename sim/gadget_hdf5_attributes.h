// Reading a GADGET snapshot's objects through libhdf5, each check failing in one line that names the file:
// links that stay inside the file, attributes of known shape and class, datasets whose storage is checked
// before a byte of data is read. Used by gadget_hdf5_read.cpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/hdf5_handle.h"

namespace coalesce::gadget {

// The file's name and its open handle, with the one way every message is made.
struct Snapshot {
  std::string name;
  hid_t file = H5I_INVALID_HID;

  [[noreturn]] void fail(const std::string& message) const;
  // `what` failed inside libhdf5: its innermost reason is added.
  [[noreturn]] void fail_hdf5(const std::string& what) const;
};

enum class ObjectKind { Missing, Group, Dataset, Other };

// What `name` (one link of `location`, shown as `path` in messages) is. A soft or external link, which
// could lead out of this file, is refused.
ObjectKind object_kind(const Snapshot& s, hid_t location, const std::string& name, const std::string& path);

// The names of `group`'s links in name order (at most `limit`; more is refused, naming `path`).
std::vector<std::string> link_names(const Snapshot& s, hid_t group, const std::string& path,
                                    std::size_t limit);

Hdf5Group open_group(const Snapshot& s, hid_t location, const std::string& name, const std::string& path);

// A numeric attribute's values: scalar or one-dimensional with 1 to `max_count` values; nullopt when absent.
// Counts: integers, negative ones refused. Reals: integers or floats, as doubles. Integer: one, as int64
// (an unsigned value past its range as its largest).
std::optional<std::vector<std::uint64_t>> read_counts(const Snapshot& s, hid_t location, const char* name,
                                                      const std::string& path, std::size_t max_count);
std::optional<std::vector<double>> read_reals(const Snapshot& s, hid_t location, const char* name,
                                              const std::string& path, std::size_t max_count);
std::optional<double> read_real(const Snapshot& s, hid_t location, const char* name, const std::string& path);
std::optional<std::int64_t> read_integer(const Snapshot& s, hid_t location, const char* name,
                                         const std::string& path);

enum class ValueClass { Real, Id };

// A dataset checked before its data are read: rank 1 (columns 1) or 2, `rows` x `columns`; float32 or
// float64 (IEEE) for Real, any integer of at most 8 bytes for Id; values stored in this file (no external
// or virtual storage), uncompressed or through deflate/shuffle/fletcher32 with enough bytes stored to hold
// them, in chunks no larger than the dataset, each gzip chunk inflating to no more than its declared size.
struct CheckedDataset {
  Hdf5Dataset dataset;
  std::string path;  // "PartType1/Coordinates"
  ValueClass kind = ValueClass::Real;
  std::size_t value_bytes = 0;
  bool is_signed = false;         // Id: the file's integers are signed
  std::uint64_t chunk_bytes = 0;  // the bytes of one chunk; 0: not chunked
};
CheckedDataset check_dataset(const Snapshot& s, hid_t group, const std::string& name, const std::string& path,
                             std::uint64_t rows, int columns, ValueClass kind);

// `rows` rows from `first` of a checked dataset into `out` (rows x columns), as doubles (Real) or as
// int64/uint64 bit patterns (Id: signed values as int64).
void read_rows(const Snapshot& s, const CheckedDataset& d, std::uint64_t first, std::uint64_t rows,
               int columns, void* out);

}  // namespace coalesce::gadget
