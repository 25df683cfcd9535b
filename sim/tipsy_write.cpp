// save_tipsy: the state as dark matter in either byte order, and its IDs as PATH.iord, replaced together.
#include <cfloat>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <new>
#include <stdexcept>

#include "sim/limits.h"
#include "sim/record_checks.h"
#include "sim/tipsy.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tipsy_write.cpp writes native (little-endian) values by memcpy and swaps standard ones"
#endif

namespace coalesce {

namespace {

class TipsyBytes {
 public:
  TipsyBytes(std::string& out, TipsyByteOrder order) : m_out(out), m_order(order) {}

  void put32(std::uint32_t bits) {
    put(m_order == TipsyByteOrder::Standard ? __builtin_bswap32(bits) : bits);
  }
  void put64(std::uint64_t bits) {
    put(m_order == TipsyByteOrder::Standard ? __builtin_bswap64(bits) : bits);
  }
  void put_int(std::int32_t v) { put32(static_cast<std::uint32_t>(v)); }
  void put_float(float v) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    put32(bits);
  }
  void put_double(double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    put64(bits);
  }

 private:
  template <class Bits>
  void put(Bits bits) {
    std::memcpy(m_out.data() + m_at, &bits, sizeof bits);
    m_at += sizeof bits;
  }

  std::string& m_out;
  TipsyByteOrder m_order;
  std::size_t m_at = 0;
};

// The value as the float a Tipsy file holds: the nearest, refused where rounding makes a finite value
// infinite (the file could not be read back). A float's value, NaN included, is kept bitwise.
float tipsy_float(double v, const OutputFile& file, std::size_t index, const char* field) {
  const auto f = static_cast<float>(v);
  if (std::isfinite(v) && !std::isfinite(f))
    throw RuntimeFailure(file.shown + ": " + field + " = " + exact_text(v) + " at particle " +
                         std::to_string(index) + " is beyond the float range of a Tipsy file (" +
                         exact_text(FLT_MAX) +
                         "); nothing was written: save the state as .npy, which keeps doubles");
  return f;
}

std::string ids_text(const std::vector<std::uint64_t>& ids) {
  std::string text = std::to_string(ids.size()) + "\n";
  text.reserve(text.size() + ids.size() * 11);
  char digits[24];
  for (const std::uint64_t id : ids) {
    const auto end = std::to_chars(digits, digits + sizeof digits, id).ptr;
    text.append(digits, end);
    text += '\n';
  }
  return text;
}

template <class Real>
std::vector<EncodedFile> encode_records(const OutputFile& file,
                                        const std::vector<ParticleRecord<Real>>& particles,
                                        const StateExtras& extras, TipsyByteOrder order) {
  if (file.to_stdout)
    throw TipsyError(file.flag +
                     " -: a Tipsy state is two files, PATH and PATH.iord (its IDs); give a file path");
  const std::size_t n = particles.size();
  if (n == 0 || n > static_cast<std::size_t>(kMaxParticles))
    throw std::invalid_argument("save_tipsy: " + std::to_string(n) + " particles; a Tipsy file holds 1 to " +
                                std::to_string(kMaxParticles));
  if (extras.potential && extras.potential->size() != n)
    throw std::invalid_argument("save_tipsy: " + std::to_string(extras.potential->size()) +
                                " potentials for " + std::to_string(n) + " particles");
  const float unknown = std::numeric_limits<float>::quiet_NaN();
  const float eps = extras.softening ? tipsy_float(*extras.softening, file, 0, "softening") : unknown;
  const std::uint64_t bytes = kTipsyHeaderBytes + kTipsyDarkBytes * n;
  std::string body, ids;
  try {
    body.resize(static_cast<std::size_t>(bytes));
    ids = ids_text(ids_or_sequence(extras.ids, n));
  } catch (const std::bad_alloc&) {
    throw RuntimeFailure(file.shown + ": out of host memory for the " + std::to_string(bytes >> 20) +
                         " MiB Tipsy file of " + std::to_string(n) + " particles; nothing was written");
  }
  TipsyBytes out(body, order);
  out.put_double(extras.time);
  for (const std::int32_t v : {static_cast<std::int32_t>(n), 3, 0, static_cast<std::int32_t>(n), 0, 0})
    out.put_int(v);  // nbodies, ndim, nsph, ndark, nstar, pad
  for (std::size_t i = 0; i < n; ++i) {
    const ParticleRecord<Real>& p = particles[i];
    const Real values[] = {p.mass, p.x, p.y, p.z, p.vx, p.vy, p.vz};  // Tipsy's order: mass, pos, vel
    const int fields[] = {6, 0, 1, 2, 3, 4, 5};
    for (int k = 0; k < kFieldsPerParticle; ++k)
      out.put_float(tipsy_float(values[k], file, i, kRecordFieldNames[fields[k]]));
    out.put_float(eps);
    out.put_float(extras.potential ? tipsy_float((*extras.potential)[i], file, i, "potential") : unknown);
  }
  std::vector<EncodedFile> files(2);
  files[0].bytes = std::move(body);
  files[1].suffix = kTipsyIdsSuffix;
  files[1].bytes = std::move(ids);
  return files;
}

}  // namespace

std::vector<EncodedFile> encode_tipsy(const OutputFile& file, const std::vector<Particle>& particles,
                                      const StateExtras& extras, TipsyByteOrder order) {
  return encode_records(file, particles, extras, order);
}

std::vector<EncodedFile> encode_tipsy(const OutputFile& file, const std::vector<ParticleF64>& particles,
                                      const StateExtras& extras, TipsyByteOrder order) {
  return encode_records(file, particles, extras, order);
}

void save_tipsy(const OutputFile& file, const std::vector<Particle>& particles, const StateExtras& extras,
                TipsyByteOrder order) {
  write_encoded(file, encode_tipsy(file, particles, extras, order));
}

void save_tipsy(const OutputFile& file, const std::vector<ParticleF64>& particles, const StateExtras& extras,
                TipsyByteOrder order) {
  write_encoded(file, encode_tipsy(file, particles, extras, order));
}

}  // namespace coalesce
