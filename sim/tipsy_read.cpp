// Reading Tipsy files: the header's byte order told by ndim, its counts checked against each other and the
// file's size before any particle is read, then the particles read in bounded chunks into double records.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>

#include "sim/limits.h"
#include "sim/printable.h"
#include "sim/record_checks.h"
#include "sim/tipsy.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tipsy_read.cpp reads native (little-endian) values by memcpy and swaps standard ones"
#endif
static_assert(std::numeric_limits<float>::is_iec559 && std::numeric_limits<double>::is_iec559,
              "Tipsy's values are IEEE 754 float32 and float64");

namespace coalesce {

namespace {

// Bytes read per call: bounded memory beside the records, and few enough calls to be fast.
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

[[noreturn]] void fail(const std::string& name, const std::string& message) {
  throw TipsyError(name + ": " + message);
}

template <class Bits>
Bits bits_at(const unsigned char* p, TipsyByteOrder order) {
  Bits bits;
  std::memcpy(&bits, p, sizeof bits);
  if (order == TipsyByteOrder::Native) return bits;
  if constexpr (sizeof(Bits) == 4)
    return __builtin_bswap32(bits);
  else
    return __builtin_bswap64(bits);
}

std::int32_t int32_at(const unsigned char* p, TipsyByteOrder order) {
  return static_cast<std::int32_t>(bits_at<std::uint32_t>(p, order));
}

float float_at(const unsigned char* p, TipsyByteOrder order) {
  const std::uint32_t bits = bits_at<std::uint32_t>(p, order);
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

double double_at(const unsigned char* p, TipsyByteOrder order) {
  const std::uint64_t bits = bits_at<std::uint64_t>(p, order);
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

struct Header {
  TipsyByteOrder order = TipsyByteOrder::Standard;
  double time = 0.0;
  std::int32_t nbodies = 0, nsph = 0, ndark = 0, nstar = 0;
};

// The three kinds of particle in file order, each with its record's size.
struct Family {
  std::int32_t count;
  std::uint64_t bytes;
  int eps_offset;  // bytes into a particle; -1: gas has none
  int phi_offset;
};

// What the ignored eps and phi fields held: worth a word only when they say something (a file coalesce
// wrote has one eps, the run's softening, and phi NaN: unknown).
struct SofteningAndPotential {
  std::optional<float> first_eps;
  bool eps_varies = false;
  bool phi_known = false;
};

std::string counts_text(const Header& h) {
  return "nsph " + std::to_string(h.nsph) + ", ndark " + std::to_string(h.ndark) + ", nstar " +
         std::to_string(h.nstar);
}

// The header, in the byte order where ndim is 3, checked in itself and against the file's size.
Header read_header(const std::string& name, std::uint64_t size, const ReadAt& read) {
  if (size < kTipsyHeaderBytes)
    fail(name, "file is " + std::to_string(size) + " bytes; expected at least the 32-byte Tipsy header " +
                   "(double time, int32 nbodies, ndim, nsph, ndark, nstar, pad)");
  unsigned char bytes[kTipsyHeaderBytes];
  read(0, bytes, sizeof bytes);
  const std::int32_t ndim_big = int32_at(bytes + 12, TipsyByteOrder::Standard);
  const std::int32_t ndim_little = int32_at(bytes + 12, TipsyByteOrder::Native);
  Header h;
  if (ndim_big == 3)
    h.order = TipsyByteOrder::Standard;
  else if (ndim_little == 3)
    h.order = TipsyByteOrder::Native;
  else
    fail(name, "not a Tipsy file: ndim is " + std::to_string(ndim_big) + " read big-endian and " +
                   std::to_string(ndim_little) + " read little-endian; expected 3 in one of them");
  h.time = double_at(bytes, h.order);
  h.nbodies = int32_at(bytes + 8, h.order);
  h.nsph = int32_at(bytes + 16, h.order);
  h.ndark = int32_at(bytes + 20, h.order);
  h.nstar = int32_at(bytes + 24, h.order);
  const std::string in_order =
      h.order == TipsyByteOrder::Standard ? " (big-endian header)" : " (little-endian header)";
  if (h.nbodies < 0 || h.nsph < 0 || h.ndark < 0 || h.nstar < 0)
    fail(name, "header says nbodies " + std::to_string(h.nbodies) + ", " + counts_text(h) + in_order +
                   "; expected counts >= 0");
  const std::int64_t sum = std::int64_t{h.nsph} + h.ndark + h.nstar;
  if (sum != h.nbodies)
    fail(name, "header says nbodies " + std::to_string(h.nbodies) + " but " + counts_text(h) + " add up to " +
                   std::to_string(sum) + in_order + "; expected nbodies = nsph + ndark + nstar");
  if (h.nbodies == 0 || h.nbodies > kMaxParticles)
    fail(name, "header says nbodies " + std::to_string(h.nbodies) + in_order + "; expected " +
                   describe_integers(1, kMaxParticles) + " particles");
  if (!std::isfinite(h.time))
    fail(name, "header time is " + number_text(h.time) + in_order + "; expected a finite time");
  // Before reading a particle: a 3 GB file whose header says 10 particles is refused here.
  const std::uint64_t expected = kTipsyHeaderBytes + kTipsyGasBytes * static_cast<std::uint64_t>(h.nsph) +
                                 kTipsyDarkBytes * static_cast<std::uint64_t>(h.ndark) +
                                 kTipsyStarBytes * static_cast<std::uint64_t>(h.nstar);
  if (size != expected)
    fail(name, "file is " + std::to_string(size) + " bytes; expected " + std::to_string(expected) + " for " +
                   counts_text(h) + " (32 + 48 nsph + 36 ndark + 44 nstar): " +
                   (size < expected ? "the file is truncated"
                                    : "the file has " + std::to_string(size - expected) + " trailing bytes"));
  return h;
}

// What the file held that a state has no place for, in one phrase.
std::string ignored_fields(const Header& h, const SofteningAndPotential& seen) {
  std::string phrase;
  const auto add = [&phrase](const std::string& part) { phrase += (phrase.empty() ? "" : "; ") + part; };
  if (h.nsph > 0) add("gas fields rho, temp, hsmooth, metals of " + counted(h.nsph, "gas particle"));
  if (h.nstar > 0) add("star fields metals, tform of " + counted(h.nstar, "star particle"));
  if (seen.eps_varies) add("per-particle eps (a run has one softening: --softening)");
  if (seen.phi_known) add("phi (the potential)");
  if ((h.nsph > 0) + (h.ndark > 0) + (h.nstar > 0) > 1) add("which particles were gas, dark or star");
  return phrase;
}

// `count` particles of `stride` bytes from `offset` into the records from `first`, each checked.
void read_family(const std::string& name, const Header& h, std::uint64_t offset, const Family& family,
                 std::size_t first, std::vector<ParticleF64>& records, SofteningAndPotential& seen,
                 const ReadAt& read) {
  const auto count = static_cast<std::size_t>(family.count);
  const std::uint64_t stride = family.bytes;
  const std::size_t per_chunk = static_cast<std::size_t>(kChunkBytes / stride);
  std::vector<unsigned char> chunk(static_cast<std::size_t>(std::min(count, per_chunk) * stride));
  for (std::size_t done = 0; done < count;) {
    const std::size_t n = std::min(count - done, per_chunk);
    read(offset + done * stride, chunk.data(), static_cast<std::size_t>(n * stride));
    for (std::size_t j = 0; j < n; ++j) {
      const unsigned char* p = chunk.data() + j * stride;  // mass, pos[3], vel[3], then what is ignored
      const std::size_t index = first + done + j;
      ParticleF64& r = records[index];
      r = {float_at(p + 4, h.order),  float_at(p + 8, h.order),  float_at(p + 12, h.order),
           float_at(p + 16, h.order), float_at(p + 20, h.order), float_at(p + 24, h.order),
           float_at(p, h.order)};
      const std::string problem = record_problem(r, index, true);
      if (!problem.empty()) fail(name, problem);
      if (family.eps_offset >= 0) {
        const float eps = float_at(p + family.eps_offset, h.order);
        if (!seen.first_eps) seen.first_eps = eps;
        const bool same = eps == *seen.first_eps || (std::isnan(eps) && std::isnan(*seen.first_eps));
        seen.eps_varies = seen.eps_varies || !same;
      }
      seen.phi_known = seen.phi_known || !std::isnan(float_at(p + family.phi_offset, h.order));
    }
    done += n;
  }
}

}  // namespace

std::string to_string(TipsyByteOrder order) {
  return order == TipsyByteOrder::Standard ? "standard (big-endian)" : "native (little-endian)";
}

StateContents decode_tipsy(const std::string& name, std::uint64_t size, const ReadAt& read) {
  const Header h = read_header(name, size, read);
  StateContents state;
  state.name = name;
  state.format = h.order == TipsyByteOrder::Standard ? "tipsy" : "tipsy-native";
  state.time = h.time;
  const auto n = static_cast<std::size_t>(h.nbodies);
  try {
    state.records.resize(n);  // the file's size holds them: checked by read_header
    state.ids = ids_or_sequence(nullptr, n);
  } catch (const std::bad_alloc&) {
    // The file sets N, so the advice is about memory and the file.
    throw RuntimeFailure(
        name + ": out of host memory reading its " + std::to_string(n) + " particles (" +
        std::to_string(n * (sizeof(ParticleF64) + sizeof(std::uint64_t)) >> 20) +
        " MiB as double records and IDs); free memory, or load a state with fewer particles");
  }
  // Gas: mass, pos, vel, rho, temp, hsmooth, metals, phi; dark: ..., eps, phi; star: ..., metals, tform, eps,
  // phi.
  const Family families[] = {{h.nsph, kTipsyGasBytes, -1, 44},
                             {h.ndark, kTipsyDarkBytes, 28, 32},
                             {h.nstar, kTipsyStarBytes, 36, 40}};
  SofteningAndPotential seen;
  std::uint64_t offset = kTipsyHeaderBytes;
  std::size_t first = 0;
  for (const Family& family : families) {
    read_family(name, h, offset, family, first, state.records, seen, read);
    offset += static_cast<std::size_t>(family.count) * family.bytes;
    first += static_cast<std::size_t>(family.count);
  }
  state.ignored = ignored_fields(h, seen);
  return state;
}

}  // namespace coalesce
