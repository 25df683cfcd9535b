// The checked reads of gadget_hdf5_attributes.h: every shape, class and storage size is looked at before
// libhdf5 is asked for values, so a file that claims more than it holds is refused by what it says.
#include "sim/gadget_hdf5_attributes.h"

#include <H5Zpublic.h>

#include <algorithm>
#include <limits>

#include "sim/gadget_hdf5.h"
#include "sim/hdf5_image.h"
#include "sim/inflated_size.h"

namespace coalesce::gadget {

namespace {

// Deflate's largest ratio is about 1032:1; a compressed dataset storing less than this share of its values'
// bytes cannot hold them (and would be inflated from nothing).
constexpr std::uint64_t kMaxCompressionRatio = 1100;
constexpr std::uint64_t kSmallChunkBytes = std::uint64_t{1} << 20;

std::string shape_text(const hsize_t* dims, int rank) {
  std::string text = "(";
  for (int i = 0; i < rank; ++i) text += (i ? ", " : "") + std::to_string(dims[i]);
  return text + (rank == 1 ? ",)" : ")");
}

std::string expected_shape(std::uint64_t rows, int columns) {
  return columns == 1 ? "(" + std::to_string(rows) + ",)"
                      : "(" + std::to_string(rows) + ", " + std::to_string(columns) + ")";
}

bool is_ieee_float(hid_t type) {
  for (const hid_t ieee : {H5T_IEEE_F32LE, H5T_IEEE_F32BE, H5T_IEEE_F64LE, H5T_IEEE_F64BE})
    if (H5Tequal(type, ieee) > 0) return true;
  return false;
}

// "uint16", "float32", "non-IEEE 32-bit floats", "strings": what a dataset or attribute holds, for messages.
std::string type_text(hid_t type) {
  const H5T_class_t type_class = H5Tget_class(type);
  const std::size_t bits = H5Tget_size(type) * 8;
  if (type_class == H5T_INTEGER)
    return (H5Tget_sign(type) == H5T_SGN_2 ? "int" : "uint") + std::to_string(bits);
  if (type_class == H5T_FLOAT)
    return is_ieee_float(type) ? "float" + std::to_string(bits)
                               : "non-IEEE " + std::to_string(bits) + "-bit floats";
  if (type_class == H5T_STRING) return "strings";
  if (type_class == H5T_COMPOUND) return "compound records";
  if (type_class == H5T_ARRAY) return "arrays";
  return "values of HDF5 type class " + std::to_string(static_cast<int>(type_class));
}

// An attribute, checked to be numeric and scalar or one-dimensional with 1 to max_count values.
struct CheckedAttribute {
  Hdf5Attribute attribute;
  Hdf5Datatype type;
  std::size_t count = 0;
};

std::optional<CheckedAttribute> open_attribute(const Snapshot& s, hid_t location, const char* name,
                                               const std::string& path, std::size_t max_count) {
  const std::string where = path + "/" + name;
  const htri_t exists = H5Aexists(location, name);
  if (exists < 0) s.fail_hdf5("cannot look up " + where);
  if (exists == 0) return std::nullopt;
  CheckedAttribute a;
  a.attribute = Hdf5Attribute(H5Aopen(location, name, H5P_DEFAULT));
  if (!a.attribute) s.fail_hdf5("cannot open " + where);
  const Hdf5Dataspace space(H5Aget_space(a.attribute.get()));
  a.type = Hdf5Datatype(H5Aget_type(a.attribute.get()));
  if (!space || !a.type) s.fail_hdf5("cannot read " + where);
  const H5S_class_t space_class = H5Sget_simple_extent_type(space.get());
  if (space_class == H5S_SCALAR) {
    a.count = 1;
  } else {
    hsize_t dims[H5S_MAX_RANK] = {};
    const int rank = space_class == H5S_SIMPLE ? H5Sget_simple_extent_dims(space.get(), dims, nullptr) : -1;
    if (rank != 1 || dims[0] < 1 || dims[0] > max_count)
      s.fail(where + " has " + (rank > 0 ? "shape " + shape_text(dims, rank) : std::string("no values")) +
             "; expected " +
             (max_count == 1 ? "one value" : "1 to " + std::to_string(max_count) + " values"));
    a.count = static_cast<std::size_t>(dims[0]);
  }
  const H5T_class_t type_class = H5Tget_class(a.type.get());
  if ((type_class != H5T_INTEGER && type_class != H5T_FLOAT) || H5Tget_size(a.type.get()) > 8)
    s.fail(where + " holds " + type_text(a.type.get()) + "; expected numbers");
  return a;
}

// The bytes of one chunk of `d`, refused past those of the dataset (or kSmallChunkBytes for a small one).
std::uint64_t checked_chunk_bytes(const Snapshot& s, const CheckedDataset& d, hid_t create, int rank,
                                  std::uint64_t value_bytes) {
  hsize_t chunk[H5S_MAX_RANK] = {};
  const int chunk_rank = H5Pget_chunk(create, H5S_MAX_RANK, chunk);
  std::uint64_t chunk_bytes = d.value_bytes;
  for (int i = 0; i < chunk_rank; ++i)
    chunk_bytes *= std::min<std::uint64_t>(chunk[i], std::uint64_t{1} << 32);
  if (chunk_rank != rank || chunk_bytes > std::max(value_bytes, kSmallChunkBytes))
    s.fail(d.path + " is stored in chunks of " + std::to_string(chunk_bytes) + " bytes, more than its " +
           std::to_string(value_bytes) + " bytes of values; expected chunks no larger than the dataset");
  return chunk_bytes;
}

// Where gzip is in a dataset's pipeline (nullopt: not there), with only filters we know, and only
// fletcher32 after gzip: one gzip pass, inflated straight from the stored chunk, gives the chunk's size.
std::optional<unsigned> gzip_filter(const Snapshot& s, const std::string& path, hid_t create) {
  std::optional<unsigned> gzip;
  const int filters = H5Pget_nfilters(create);
  for (int i = 0; i < filters; ++i) {
    unsigned flags = 0, config = 0;
    std::size_t values = 0;
    char filter_name[64] = {};
    const H5Z_filter_t id = H5Pget_filter2(create, static_cast<unsigned>(i), &flags, &values, nullptr,
                                           sizeof filter_name, filter_name, &config);
    if (id != H5Z_FILTER_DEFLATE && id != H5Z_FILTER_SHUFFLE && id != H5Z_FILTER_FLETCHER32)
      s.fail(path + " is stored through HDF5 filter " + std::to_string(id) +
             "; expected no filter, gzip (deflate), shuffle or fletcher32: rewrite it with h5repack -f NONE");
    if (gzip && id != H5Z_FILTER_FLETCHER32)
      s.fail(path + " is stored through " + (id == H5Z_FILTER_DEFLATE ? "gzip" : "shuffle") +
             " after gzip; expected gzip once, after shuffle: rewrite it with h5repack -f SHUF -f GZIP=4");
    if (id == H5Z_FILTER_DEFLATE) gzip = static_cast<unsigned>(i);
  }
  return gzip;
}

// Every gzip chunk of `d` inflated, to nothing kept, before libhdf5 inflates it: libhdf5 1.10's own
// filter grows its buffer for as long as the stream goes on (a 2 MB chunk of 40 rows became 2000 MiB), and
// replacing it is refused for predefined filters, so a chunk past its declared size is refused here.
void check_inflated_chunks(const Snapshot& s, const CheckedDataset& d, hid_t create, const hsize_t* dims,
                           int rank, unsigned gzip_filter) {
  hsize_t chunk[2] = {1, 1}, at[2] = {0, 0};
  H5Pget_chunk(create, rank, chunk);
  hsize_t image_bytes = 0;
  if (H5Fget_filesize(s.file, &image_bytes) < 0 || chunk[0] == 0 || chunk[1] == 0)
    s.fail_hdf5("cannot read how " + d.path + " is stored");
  const std::uint64_t bound = d.chunk_bytes + 4;  // fletcher32 before gzip puts its checksum inside
  const hsize_t columns = rank == 2 ? dims[1] : 1;
  std::vector<unsigned char> stored;
  for (at[0] = 0; at[0] < dims[0]; at[0] += chunk[0])
    for (at[1] = 0; at[1] < columns; at[1] += chunk[1]) {
      unsigned mask = 0;
      haddr_t address = HADDR_UNDEF;
      hsize_t bytes = 0;
      if (H5Dget_chunk_info_by_coord(d.dataset.get(), at, &mask, &address, &bytes) < 0)
        s.fail_hdf5("cannot look up the chunks of " + d.path);
      // Never written (fill values), kept raw, or empty: libhdf5 inflates nothing of these.
      if (address == HADDR_UNDEF || (mask >> gzip_filter) & 1 || bytes == 0) continue;
      if (bytes > image_bytes)
        s.fail(d.path + " claims a chunk of " + std::to_string(bytes) + " bytes in a file of " +
               std::to_string(image_bytes) + "; expected its chunks inside the file (is it damaged?)");
      stored.resize(static_cast<std::size_t>(bytes));
      std::uint32_t skipped = 0;
      if (H5Dread_chunk(d.dataset.get(), H5P_DEFAULT, at, &skipped, stored.data()) < 0)
        s.fail_hdf5("cannot read " + d.path);
      if (inflated_size(stored.data(), stored.size(), bound) > bound)
        s.fail(d.path + " has a gzip chunk (row " + std::to_string(at[0]) +
               ") that inflates past its declared " + std::to_string(d.chunk_bytes) +
               " bytes (a decompression bomb, or a damaged file); expected each chunk to inflate to its "
               "declared size: rewrite the file from its source");
    }
}

}  // namespace

void Snapshot::fail(const std::string& message) const {
  throw Hdf5Error(name + ": " + message);
}

void Snapshot::fail_hdf5(const std::string& what) const {
  const std::string reason = hdf5_reason();
  fail(what + (reason.empty() ? "" : " (libhdf5: " + reason + ")") +
       "; expected a readable GADGET HDF5 snapshot (is the file damaged?)");
}

ObjectKind object_kind(const Snapshot& s, hid_t location, const std::string& name, const std::string& path) {
  const htri_t exists = H5Lexists(location, name.c_str(), H5P_DEFAULT);
  if (exists < 0) s.fail_hdf5("cannot look up " + path);
  if (exists == 0) return ObjectKind::Missing;
  H5L_info_t link;
  if (H5Lget_info(location, name.c_str(), &link, H5P_DEFAULT) < 0) s.fail_hdf5("cannot look up " + path);
  if (link.type != H5L_TYPE_HARD)
    s.fail(path + " is " + (link.type == H5L_TYPE_SOFT ? "a soft" : "an external") +
           " link; expected the object itself in this file (links to other files are not followed)");
  H5O_info_t info;
  if (H5Oget_info_by_name2(location, name.c_str(), &info, H5O_INFO_BASIC, H5P_DEFAULT) < 0)
    s.fail_hdf5("cannot look up " + path);
  if (info.type == H5O_TYPE_GROUP) return ObjectKind::Group;
  if (info.type == H5O_TYPE_DATASET) return ObjectKind::Dataset;
  return ObjectKind::Other;
}

std::vector<std::string> link_names(const Snapshot& s, hid_t group, const std::string& path,
                                    std::size_t limit) {
  H5G_info_t info;
  if (H5Gget_info(group, &info) < 0) s.fail_hdf5("cannot list " + path);
  if (info.nlinks > limit)
    s.fail(path + " has " + std::to_string(info.nlinks) + " members; expected at most " +
           std::to_string(limit));
  std::vector<std::string> names;
  hsize_t index = 0;
  const auto collect = [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
    static_cast<std::vector<std::string>*>(out)->push_back(name);
    return 0;
  };
  if (H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &index, collect, &names) < 0)
    s.fail_hdf5("cannot list " + path);
  return names;
}

Hdf5Group open_group(const Snapshot& s, hid_t location, const std::string& name, const std::string& path) {
  Hdf5Group group(H5Gopen2(location, name.c_str(), H5P_DEFAULT));
  if (!group) s.fail_hdf5("cannot open " + path);
  return group;
}

std::optional<std::vector<std::uint64_t>> read_counts(const Snapshot& s, hid_t location, const char* name,
                                                      const std::string& path, std::size_t max_count) {
  auto a = open_attribute(s, location, name, path, max_count);
  if (!a) return std::nullopt;
  const std::string where = path + "/" + name;
  if (H5Tget_class(a->type.get()) != H5T_INTEGER)
    s.fail(where + " holds " + type_text(a->type.get()) + "; expected integers (particle counts)");
  std::vector<std::uint64_t> values(a->count);
  if (H5Tget_sign(a->type.get()) == H5T_SGN_2) {
    std::vector<std::int64_t> signed_values(a->count);
    if (H5Aread(a->attribute.get(), H5T_NATIVE_INT64, signed_values.data()) < 0)
      s.fail_hdf5("cannot read " + where);
    for (std::size_t i = 0; i < a->count; ++i) {
      if (signed_values[i] < 0)
        s.fail(where + "[" + std::to_string(i) + "] is " + std::to_string(signed_values[i]) +
               "; expected a count, 0 or more");
      values[i] = static_cast<std::uint64_t>(signed_values[i]);
    }
  } else if (H5Aread(a->attribute.get(), H5T_NATIVE_UINT64, values.data()) < 0) {
    s.fail_hdf5("cannot read " + where);
  }
  return values;
}

std::optional<std::vector<double>> read_reals(const Snapshot& s, hid_t location, const char* name,
                                              const std::string& path, std::size_t max_count) {
  auto a = open_attribute(s, location, name, path, max_count);
  if (!a) return std::nullopt;
  std::vector<double> values(a->count);
  if (H5Aread(a->attribute.get(), H5T_NATIVE_DOUBLE, values.data()) < 0)
    s.fail_hdf5("cannot read " + path + "/" + name);
  return values;
}

std::optional<double> read_real(const Snapshot& s, hid_t location, const char* name,
                                const std::string& path) {
  const auto values = read_reals(s, location, name, path, 1);
  return values ? std::optional<double>((*values)[0]) : std::nullopt;
}

std::optional<std::int64_t> read_integer(const Snapshot& s, hid_t location, const char* name,
                                         const std::string& path) {
  auto a = open_attribute(s, location, name, path, 1);
  if (!a) return std::nullopt;
  if (H5Tget_class(a->type.get()) != H5T_INTEGER)
    s.fail(path + "/" + name + " holds " + type_text(a->type.get()) + "; expected an integer");
  if (H5Tget_sign(a->type.get()) != H5T_SGN_2) {
    std::uint64_t value = 0;
    if (H5Aread(a->attribute.get(), H5T_NATIVE_UINT64, &value) < 0)
      s.fail_hdf5("cannot read " + path + "/" + name);
    return static_cast<std::int64_t>(
        std::min<std::uint64_t>(value, std::numeric_limits<std::int64_t>::max()));
  }
  std::int64_t value = 0;
  if (H5Aread(a->attribute.get(), H5T_NATIVE_INT64, &value) < 0)
    s.fail_hdf5("cannot read " + path + "/" + name);
  return value;
}

CheckedDataset check_dataset(const Snapshot& s, hid_t group, const std::string& name, const std::string& path,
                             std::uint64_t rows, int columns, ValueClass kind) {
  CheckedDataset d;
  d.path = path;
  d.kind = kind;
  d.dataset = Hdf5Dataset(H5Dopen2(group, name.c_str(), H5P_DEFAULT));
  if (!d.dataset) s.fail_hdf5("cannot open " + path);
  const Hdf5Dataspace space(H5Dget_space(d.dataset.get()));
  if (!space) s.fail_hdf5("cannot read the shape of " + path);
  const int expected_rank = columns == 1 ? 1 : 2;
  hsize_t dims[H5S_MAX_RANK] = {};
  const int rank = H5Sget_simple_extent_type(space.get()) == H5S_SIMPLE
                       ? H5Sget_simple_extent_dims(space.get(), dims, nullptr)
                       : 0;
  if (rank != expected_rank || dims[0] != rows || (rank == 2 && dims[1] != static_cast<hsize_t>(columns)))
    s.fail(path + " has shape " + (rank > 0 ? shape_text(dims, rank) : std::string("()")) + "; expected " +
           expected_shape(rows, columns) + " for the header's NumPart_ThisFile");

  const Hdf5Datatype type(H5Dget_type(d.dataset.get()));
  if (!type) s.fail_hdf5("cannot read the type of " + path);
  d.value_bytes = H5Tget_size(type.get());
  if (kind == ValueClass::Real && !is_ieee_float(type.get()))
    s.fail(path + " holds " + type_text(type.get()) + "; expected float32 or float64");
  if (kind == ValueClass::Id && (H5Tget_class(type.get()) != H5T_INTEGER || d.value_bytes > 8))
    s.fail(path + " holds " + type_text(type.get()) + "; expected integers of at most 64 bits");
  d.is_signed = H5Tget_sign(type.get()) == H5T_SGN_2;

  const Hdf5PropertyList create(H5Dget_create_plist(d.dataset.get()));
  if (!create) s.fail_hdf5("cannot read how " + path + " is stored");
  const H5D_layout_t layout = H5Pget_layout(create.get());
  if (layout == H5D_VIRTUAL)
    s.fail(path + " is a virtual dataset (its values live in other files); expected its values in this file");
  if (layout != H5D_CONTIGUOUS && layout != H5D_CHUNKED && layout != H5D_COMPACT)
    s.fail_hdf5("cannot read how " + path + " is stored");
  if (H5Pget_external_count(create.get()) != 0)
    s.fail(path + " keeps its values in external files; expected its values in this file");
  const std::optional<unsigned> gzip = gzip_filter(s, path, create.get());
  const bool compressed = gzip.has_value();
  const std::uint64_t value_bytes = rows * static_cast<std::uint64_t>(columns) * d.value_bytes;
  if (layout == H5D_CHUNKED) d.chunk_bytes = checked_chunk_bytes(s, d, create.get(), rank, value_bytes);
  // Before a byte is read: a dataset that declares a million rows in a small file holds them or is refused.
  const std::uint64_t stored = H5Dget_storage_size(d.dataset.get());
  const std::uint64_t needed =
      compressed ? (value_bytes + kMaxCompressionRatio - 1) / kMaxCompressionRatio : value_bytes;
  if (stored < needed)
    s.fail(path + " stores " + std::to_string(stored) + " bytes for " + std::to_string(rows) + " rows (" +
           std::to_string(value_bytes) + " bytes of values" + (compressed ? ", compressed" : "") +
           "); expected its values in the file (truncated, or written without data?)");
  if (compressed) check_inflated_chunks(s, d, create.get(), dims, rank, *gzip);
  return d;
}

void read_rows(const Snapshot& s, const CheckedDataset& d, std::uint64_t first, std::uint64_t rows,
               int columns, void* out) {
  const Hdf5Dataspace file_space(H5Dget_space(d.dataset.get()));
  const hsize_t start[2] = {first, 0}, count[2] = {rows, static_cast<hsize_t>(columns)};
  const int rank = columns == 1 ? 1 : 2;
  const Hdf5Dataspace memory(H5Screate_simple(rank, count, nullptr));
  if (!file_space || !memory ||
      H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0)
    s.fail_hdf5("cannot select rows of " + d.path);
  const hid_t type = d.kind == ValueClass::Real ? H5T_NATIVE_DOUBLE
                     : d.is_signed              ? H5T_NATIVE_INT64
                                                : H5T_NATIVE_UINT64;
  if (H5Dread(d.dataset.get(), type, memory.get(), file_space.get(), H5P_DEFAULT, out) < 0)
    s.fail_hdf5("cannot read " + d.path);
}

}  // namespace coalesce::gadget
