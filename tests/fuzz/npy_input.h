// What the .npy fuzzer checks on each input, shared with the regression test that replays its corpus
// (tests/sim/fuzz_regression_test.cpp), so both hold decode_npy and parse_npy_header to the same promise.
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

namespace coalesce::fuzz {

// decode_npy asked for bytes outside the file it was given: a bug in the decoder, which must check the
// sizes first. Not a UsageError, so it is never mistaken for a clean rejection.
class OutOfBoundsRead : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// decode_npy over `bytes` held in memory, as load_npy reads a file of that size.
inline std::vector<Particle> decode_npy_bytes(const std::string& name, const std::string& bytes) {
  return decode_npy(name, bytes.size(), [&bytes](std::uint64_t offset, void* destination, std::size_t size) {
    if (offset > bytes.size() || size > bytes.size() - offset)
      throw OutOfBoundsRead("decode_npy read " + std::to_string(size) + " bytes at offset " +
                            std::to_string(offset) + " of a " + std::to_string(bytes.size()) + "-byte file");
    if (size) std::memcpy(destination, bytes.data() + offset, size);
  });
}

struct NpyOutcome {
  bool parsed = false;
  std::string error;   // the rejection's message
  std::string broken;  // "" when decode_npy and parse_npy_header kept their promise, else how they did not
};

// Feeds `bytes` to decode_npy as the file `name`, and to parse_npy_header as header text. decode_npy's
// promise (sim/npy.h): N >= 1 particles, as many as the file holds after its header, every value finite and
// every mass in kMassRange; or an NpyError (a UsageError) whose what() starts with "NAME: ". Any other
// exception is not caught here: the fuzzer reports it as a crash, GoogleTest as a failure.
inline NpyOutcome check_decode_npy(const std::string& bytes, const std::string& name) {
  NpyOutcome outcome;
  try {
    const std::vector<Particle> particles = decode_npy_bytes(name, bytes);
    outcome.parsed = true;
    if (particles.empty() || particles.size() * sizeof(Particle) > bytes.size())
      outcome.broken = "decoded " + std::to_string(particles.size()) + " particles from " +
                       std::to_string(bytes.size()) + " bytes";
    for (const Particle& p : particles) {
      const float* f = &p.x;
      for (int k = 0; k < kFieldsPerParticle; ++k)
        if (!std::isfinite(f[k])) outcome.broken = "accepted a non-finite value";
      if (!kMassRange.contains(p.mass)) outcome.broken = "accepted a mass outside kMassRange";
    }
  } catch (const UsageError& e) {
    outcome.error = e.what();
    const std::string what = e.what();
    if (what.rfind(name + ": ", 0) != 0) outcome.broken = "message does not start with 'NAME: ': " + what;
  }
  // The header parser alone, on the same bytes as text: a header or nullopt with a reason, nothing else.
  std::string error;
  if (!parse_npy_header(bytes, error) && error.empty() && outcome.broken.empty())
    outcome.broken = "parse_npy_header failed without saying why";
  return outcome;
}

}  // namespace coalesce::fuzz
