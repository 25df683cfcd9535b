// Reading .npy states: the preamble and header checked against the file's size, the values read in bounded
// chunks into double records (byte-swapped and reordered as the header says), then checked; and the
// records in each precision's scalar.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>
#include <optional>

#include "sim/errors.h"
#include "sim/limits.h"
#include "sim/npy.h"
#include "sim/npy_header.h"
#include "sim/printable.h"
#include "sim/record_checks.h"
#include "sim/state_records.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "npy_read.cpp reads '<' values by memcpy and swaps '>' ones: it needs a little-endian host"
#endif
static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "float64 -> float32 rounding relies on IEEE 754 (round to nearest, overflow to infinity)");

namespace coalesce {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;
constexpr const auto& kFieldNames = kRecordFieldNames;
// Bytes read per call: bounded memory beside the records, and few enough calls to be fast.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

[[noreturn]] void fail(const std::string& name, const std::string& message) {
  throw NpyError(name + ": " + message);
}

// At most kShownDimensions of them, then how many there are: a 5,000-dimension header stays one short line.
std::string shape_text(const std::vector<std::int64_t>& shape) {
  constexpr std::size_t kShownDimensions = 4;
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size() && i < kShownDimensions; ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() > kShownDimensions) return s + ", ...) (" + std::to_string(shape.size()) + " dimensions)";
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string value_text(double v, NpyScalar scalar) {
  return stored_value_text(v, scalar == NpyScalar::Float32);
}

std::uint32_t little_endian(const unsigned char* p, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The dtypes numpy.save writes for float32 and float64: dtype.str, always with '<' or '>'. NumPy would
// read '=f4' or '|f4' as the reading machine's order, which a file cannot promise, and never writes them.
std::optional<NpySource> source_of(const std::string& descr) {
  if (descr.size() != 3 || (descr[0] != '<' && descr[0] != '>') || descr[1] != 'f') return std::nullopt;
  NpySource source;
  source.byte_swapped = descr[0] == '>';
  if (descr[2] == '4')
    source.scalar = NpyScalar::Float32;
  else if (descr[2] == '8')
    source.scalar = NpyScalar::Float64;
  else
    return std::nullopt;
  return source;
}

std::size_t value_bytes(NpyScalar scalar) { return scalar == NpyScalar::Float32 ? 4 : 8; }

// Where the values start, how many records there are and how they are stored: checks everything up to
// the data against `size`.
struct Layout {
  std::uint64_t data_offset = 0;
  std::size_t particles = 0;
  NpySource source;
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
                   "; expected {'descr': '<f4', 'fortran_order': False, 'shape': (N, 7)} as numpy.save writes it");
  const auto source = source_of(header->descr);
  if (!source)
    fail(name, "dtype is '" + excerpt(header->descr, 16) +
                   "'; expected float32 or float64 in either byte order ('<f4', '>f4', '<f8' or '>f8'): "
                   "save with arr.astype('<f8')");
  layout.source = *source;
  layout.source.fortran_order = header->fortran_order;
  const auto& shape = header->shape;
  if (shape.size() != 2 || shape[1] != kFieldsPerParticle || shape[0] <= 0)
    fail(name, "shape is " + shape_text(shape) + "; expected (N, 7) with N > 0 (x, y, z, vx, vy, vz, mass)");
  if (shape[0] > kMaxParticles)
    fail(name, "shape is " + shape_text(shape) + "; expected N <= " + std::to_string(kMaxParticles));
  layout.particles = static_cast<std::size_t>(shape[0]);
  // Before reading a byte of data: a 3 GB file whose header says 10 rows is refused here.
  const std::uint64_t expected =
      layout.data_offset + layout.particles * kFieldsPerParticle * value_bytes(layout.source.scalar);
  if (size != expected)
    fail(name, "file is " + std::to_string(size) + " bytes; expected " + std::to_string(expected) +
                   " for shape " + shape_text(shape) + " of '" + excerpt(header->descr, 16) +
                   "' (truncated or trailing data)");
  return layout;
}

double* fields(ParticleF64& p) { return &p.x; }
const double* fields(const ParticleF64& p) { return &p.x; }

// Where the next value goes: along a record in C order, down a column in Fortran order.
struct Cursor {
  std::size_t row = 0;
  int field = 0;
  void advance(bool fortran_order, std::size_t rows) {
    if (fortran_order) {
      if (++row == rows) row = 0, ++field;
    } else if (++field == kFieldsPerParticle) {
      field = 0, ++row;
    }
  }
};

// `count` values of type Real (stored as Bits, byte-swapped if `swap`) into the records at `at`.
template <class Real, class Bits>
void decode_values(const unsigned char* bytes, std::size_t count, bool swap, bool fortran_order,
                   std::vector<ParticleF64>& records, Cursor& at) {
  static_assert(sizeof(Real) == sizeof(Bits));
  for (std::size_t i = 0; i < count; ++i) {
    Bits bits;
    std::memcpy(&bits, bytes + i * sizeof(Bits), sizeof(Bits));
    if (swap) {
      if constexpr (sizeof(Bits) == 4)
        bits = __builtin_bswap32(bits);
      else
        bits = __builtin_bswap64(bits);
    }
    Real value;
    std::memcpy(&value, &bits, sizeof(Real));
    fields(records[at.row])[at.field] = static_cast<double>(value);
    at.advance(fortran_order, records.size());
  }
}

void check_values(const std::string& name, const NpyState& state) {
  const bool floats = state.source.scalar == NpyScalar::Float32;
  for (std::size_t i = 0; i < state.records.size(); ++i) {
    const std::string problem = record_problem(state.records[i], i, floats);
    if (!problem.empty()) fail(name, problem);
  }
}

std::size_t count_inexact_in_fp32(const std::vector<ParticleF64>& records) {
  std::size_t inexact = 0;
  for (const ParticleF64& p : records)
    for (int k = 0; k < kFieldsPerParticle; ++k)
      inexact += static_cast<double>(static_cast<float>(fields(p)[k])) != fields(p)[k];
  return inexact;
}

}  // namespace

NpyState decode_npy_state(const std::string& name, std::uint64_t size, const ReadAt& read) {
  const Layout layout = read_layout(name, size, read);
  NpyState state;
  state.name = name;
  state.source = layout.source;
  try {
    state.records.resize(layout.particles);  // the file's size holds them: checked by read_layout
  } catch (const std::bad_alloc&) {
    // The file sets N, so the advice is about memory and the file, never --particles.
    throw RuntimeFailure(name + ": out of host memory reading its " + std::to_string(layout.particles) +
                         " particles (" + std::to_string(layout.particles * sizeof(ParticleF64) >> 20) +
                         " MiB as double records); free memory, or load a state with fewer particles");
  }
  const std::size_t value_size = value_bytes(layout.source.scalar);
  const std::uint64_t total = std::uint64_t{layout.particles} * kFieldsPerParticle * value_size;
  std::vector<unsigned char> chunk(static_cast<std::size_t>(std::min<std::uint64_t>(total, kChunkBytes)));
  Cursor at;
  for (std::uint64_t done = 0; done < total;) {
    const auto bytes = static_cast<std::size_t>(std::min<std::uint64_t>(total - done, chunk.size()));
    read(layout.data_offset + done, chunk.data(), bytes);
    const std::size_t count = bytes / value_size;  // kChunkBytes is a multiple of both value sizes
    if (layout.source.scalar == NpyScalar::Float32)
      decode_values<float, std::uint32_t>(chunk.data(), count, layout.source.byte_swapped,
                                          layout.source.fortran_order, state.records, at);
    else
      decode_values<double, std::uint64_t>(chunk.data(), count, layout.source.byte_swapped,
                                           layout.source.fortran_order, state.records, at);
    done += bytes;
  }
  check_values(name, state);
  if (layout.source.scalar == NpyScalar::Float64) state.inexact_in_fp32 = count_inexact_in_fp32(state.records);
  return state;
}

template <>
std::vector<ParticleF64> npy_records<Precision::Fp64>(const NpyState& state) {
  return records_in_precision<Precision::Fp64, NpyError>(state.name, state.records,
                                                         state.source.scalar == NpyScalar::Float64);
}

template <>
std::vector<Particle> npy_records<Precision::Fp32>(const NpyState& state) {
  return records_in_precision<Precision::Fp32, NpyError>(state.name, state.records,
                                                         state.source.scalar == NpyScalar::Float64);
}

}  // namespace coalesce
