// What the Tipsy fuzzer checks on each input, shared with the regression test that replays its corpus
// (tests/sim/fuzz_regression_test.cpp), so both hold decode_tipsy to the same promise. Header-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>

#include "sim/limits.h"
#include "sim/tipsy.h"
#include "tests/fuzz/error_line.h"
#include "tests/fuzz/npy_input.h"

namespace coalesce::fuzz {

// decode_tipsy over `bytes` held in memory, as load_tipsy reads a file of that size; a read outside them
// throws OutOfBoundsRead (npy_input.h), never mistaken for a clean rejection.
inline StateContents decode_tipsy_bytes(const std::string& name, const std::string& bytes) {
  return decode_tipsy(name, bytes.size(),
                      [&bytes](std::uint64_t offset, void* destination, std::size_t size) {
                        if (offset > bytes.size() || size > bytes.size() - offset)
                          throw OutOfBoundsRead("decode_tipsy read " + std::to_string(size) +
                                                " bytes at offset " + std::to_string(offset) + " of a " +
                                                std::to_string(bytes.size()) + "-byte file");
                        if (size) std::memcpy(destination, bytes.data() + offset, size);
                      });
}

struct TipsyOutcome {
  bool parsed = false;
  std::string error;   // the rejection's message
  std::string broken;  // "" when decode_tipsy kept its promise, else how it did not
};

// decode_tipsy's promise (sim/tipsy.h): 1 to kMaxParticles records, no more than the bytes after the header
// hold at 36 bytes a particle (the smallest), each value a float (exact as one), finite, each mass in
// kMassRange; IDs 0..N-1 not from a file; a finite time; "tipsy" or "tipsy-native" (what was ignored may be
// nothing: one eps and an unknown phi say nothing); or a TipsyError (a UsageError) whose what() starts with "NAME: " and is one short line. Any other
// exception is not caught here: the fuzzer reports it as a crash, GoogleTest as a failure.
inline TipsyOutcome check_decode_tipsy(const std::string& bytes, const std::string& name) {
  TipsyOutcome outcome;
  try {
    const StateContents state = decode_tipsy_bytes(name, bytes);
    outcome.parsed = true;
    const std::size_t n = state.records.size();
    if (n == 0 || n > static_cast<std::size_t>(kMaxParticles) || bytes.size() < kTipsyHeaderBytes ||
        n > (bytes.size() - kTipsyHeaderBytes) / kTipsyDarkBytes)
      outcome.broken =
          "decoded " + std::to_string(n) + " particles from " + std::to_string(bytes.size()) + " bytes";
    for (const ParticleF64& p : state.records) {
      for (const double v : {p.x, p.y, p.z, p.vx, p.vy, p.vz, p.mass}) {
        if (!std::isfinite(v)) outcome.broken = "accepted a non-finite value";
        if (static_cast<double>(static_cast<float>(v)) != v) outcome.broken = "a value that is not a float";
      }
      if (!kMassRange.contains(p.mass)) outcome.broken = "accepted a mass outside kMassRange";
    }
    if (state.ids.size() != n || state.ids_from_file) outcome.broken = "IDs not numbered 0..N-1 here";
    for (std::size_t i = 0; i < state.ids.size() && outcome.broken.empty(); ++i)
      if (state.ids[i] != i) outcome.broken = "IDs not numbered 0..N-1 here";
    if (!std::isfinite(state.time)) outcome.broken = "accepted a non-finite time";
    if (state.format != "tipsy" && state.format != "tipsy-native") outcome.broken = "format " + state.format;
    if (state.held_doubles || state.name != name) outcome.broken = "held_doubles or name not as a Tipsy file's";
  } catch (const UsageError& e) {
    outcome.error = e.what();
    if (outcome.error.rfind(name + ": ", 0) != 0)
      outcome.broken = "message does not start with 'NAME: ': " + outcome.error;
    if (outcome.broken.empty()) outcome.broken = error_line_problem(outcome.error);
  }
  return outcome;
}

}  // namespace coalesce::fuzz
