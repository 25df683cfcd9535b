// What the .npy fuzzer checks on each input, shared with the regression test that replays its corpus
// (tests/sim/fuzz_regression_test.cpp), so both hold decode_npy_state, npy_records and parse_npy_header to
// the same promise.
// Header-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/limits.h"
#include "sim/npy.h"
#include "sim/npy_header.h"
#include "tests/fuzz/error_line.h"

namespace coalesce::fuzz {

// decode_npy_state asked for bytes outside the file it was given: a bug in the decoder, which must check the
// sizes first. Not a UsageError, so it is never mistaken for a clean rejection.
class OutOfBoundsRead : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// decode_npy_state over `bytes` held in memory, as load_npy_state reads a file of that size.
inline NpyState decode_npy_bytes(const std::string& name, const std::string& bytes) {
  return decode_npy_state(name, bytes.size(), [&bytes](std::uint64_t offset, void* destination, std::size_t size) {
    if (offset > bytes.size() || size > bytes.size() - offset)
      throw OutOfBoundsRead("decode_npy read " + std::to_string(size) + " bytes at offset " +
                            std::to_string(offset) + " of a " + std::to_string(bytes.size()) + "-byte file");
    if (size) std::memcpy(destination, bytes.data() + offset, size);
  });
}

inline bool fp32_positions_in_range(const NpyState& state) {
  for (const ParticleF64& p : state.records)
    for (const double v : {p.x, p.y, p.z})
      if (!kPositionRangeFp32.contains(v)) return false;
  return true;
}

// npy_records<Fp32>'s promise for an accepted state: every value the float nearest the record's (bitwise
// the same for a float32 file), finite, positions in kPositionRangeFp32, masses in kMassRange, exactly
// state.inexact_in_fp32 of them changed; or an NpyError starting with "NAME: " for a value beyond the float
// range or a position beyond fp32's. "" when kept.
inline std::string check_fp32_records(const NpyState& state, const std::string& name) {
  std::vector<Particle> floats;
  try {
    floats = npy_records<Precision::Fp32>(state);
  } catch (const UsageError& e) {
    const std::string what = e.what();
    if (what.rfind(name + ": ", 0) != 0) return "fp32 message does not start with 'NAME: ': " + what;
    if (state.source.scalar == NpyScalar::Float32 && fp32_positions_in_range(state))
      return "fp32 refused a float32 file: " + what;
    return {};
  }
  if (floats.size() != state.records.size()) return "fp32 records are not one per record";
  std::size_t changed = 0;
  for (std::size_t i = 0; i < floats.size(); ++i) {
    const float* f = &floats[i].x;
    const double* d = &state.records[i].x;
    for (int k = 0; k < kFieldsPerParticle; ++k) {
      if (!std::isfinite(f[k])) return "fp32 records hold a non-finite value";
      if (f[k] != static_cast<float>(d[k])) return "an fp32 value is not the float nearest the record's";
      changed += static_cast<double>(f[k]) != d[k];
    }
    if (!kMassRange.contains(floats[i].mass)) return "fp32 records hold a mass outside kMassRange";
    for (int k = 0; k < 3; ++k)
      if (!kPositionRangeFp32.contains(f[k]))
        return "fp32 records hold a position outside kPositionRangeFp32";
  }
  if (changed != state.inexact_in_fp32)
    return "rounding changed " + std::to_string(changed) + " values, inexact_in_fp32 says " +
           std::to_string(state.inexact_in_fp32);
  if (state.source.scalar == NpyScalar::Float32 && changed != 0) return "a float32 file's values changed";
  return {};
}

struct NpyOutcome {
  bool parsed = false;
  std::string error;   // the rejection's message
  std::string broken;  // "" when decode_npy_state and parse_npy_header kept their promise, else how they did not
};

// Feeds `bytes` to decode_npy_state as the file `name`, and to parse_npy_header as header text.
// decode_npy_state's promise (sim/npy.h): N >= 1 records, as many as the file holds after its header at
// its dtype's width, every value finite and every mass in kMassRange, a notice exactly when something is
// converted; then check_fp32_records; or an NpyError (a UsageError) whose what() starts with "NAME: ". Any
// other exception is not caught here: the fuzzer reports it as a crash, GoogleTest as a failure.
inline NpyOutcome check_decode_npy(const std::string& bytes, const std::string& name) {
  NpyOutcome outcome;
  try {
    const NpyState state = decode_npy_bytes(name, bytes);
    outcome.parsed = true;
    const std::size_t width = state.source.scalar == NpyScalar::Float32 ? 4 : 8;
    if (state.records.empty() || state.records.size() * kFieldsPerParticle * width > bytes.size())
      outcome.broken = "decoded " + std::to_string(state.records.size()) + " particles from " +
                       std::to_string(bytes.size()) + " bytes";
    for (const ParticleF64& p : state.records) {
      const double* f = &p.x;
      for (int k = 0; k < kFieldsPerParticle; ++k)
        if (!std::isfinite(f[k])) outcome.broken = "accepted a non-finite value";
      if (!kMassRange.contains(p.mass) || p.mass < 0) outcome.broken = "accepted a mass outside kMassRange";
    }
    const bool plain = !state.source.byte_swapped && !state.source.fortran_order;
    if (npy_notice(state, Precision::Fp32).empty() != (plain && state.source.scalar == NpyScalar::Float32) ||
        npy_notice(state, Precision::Fp64).empty() != (plain && state.source.scalar == NpyScalar::Float64))
      outcome.broken = "a notice without a conversion, or a conversion without one";
    if (outcome.broken.empty()) outcome.broken = check_fp32_records(state, name);
  } catch (const UsageError& e) {
    outcome.error = e.what();
    const std::string what = e.what();
    if (what.rfind(name + ": ", 0) != 0) outcome.broken = "message does not start with 'NAME: ': " + what;
    if (outcome.broken.empty()) outcome.broken = error_line_problem(what);
  }
  // The header parser alone, on the same bytes as text: a header or nullopt with a reason, nothing else.
  std::string error;
  if (!parse_npy_header(bytes, error) && error.empty() && outcome.broken.empty())
    outcome.broken = "parse_npy_header failed without saying why";
  return outcome;
}

}  // namespace coalesce::fuzz
