// What the GADGET HDF5 fuzzer checks on each input, shared with the regression test that replays its corpus
// (tests/sim/fuzz_regression_test.cpp), so both hold decode_gadget_hdf5 to the same promise. Header-only.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include "sim/gadget_hdf5.h"
#include "sim/hdf5_image.h"
#include "sim/limits.h"
#include "tests/fuzz/error_line.h"

namespace coalesce::fuzz {

// A snapshot accepted from `size` bytes holds at most this many particles: each needs 12 bytes of
// Coordinates at least, stored compressed at most 1100:1 (sim/gadget_hdf5_attributes.cpp).
inline bool particles_fit(std::size_t particles, std::size_t size) {
  return particles * 12 <= size * 1100;
}

struct GadgetOutcome {
  bool parsed = false;
  std::string error;   // the rejection's message
  std::string broken;  // "" when decode_gadget_hdf5 kept its promise, else how it did not
};

// decode_gadget_hdf5's promise (sim/gadget_hdf5.h): 1 to kMaxParticles records that the bytes can hold, one
// ID each, every value finite and every mass in kMassRange; or an Hdf5Error (a UsageError) of one line
// starting with "NAME: ". Either way no HDF5 object is left open. Any other exception is not caught here:
// the fuzzer reports it as a crash, GoogleTest as a failure.
inline GadgetOutcome check_decode_gadget(const std::string& bytes, const std::string& name) {
  GadgetOutcome outcome;
  try {
    const StateContents contents = decode_gadget_hdf5(name, bytes);
    outcome.parsed = true;
    const std::size_t n = contents.records.size();
    if (n == 0 || n > static_cast<std::size_t>(kMaxParticles) || !particles_fit(n, bytes.size()))
      outcome.broken =
          "decoded " + std::to_string(n) + " particles from " + std::to_string(bytes.size()) + " bytes";
    if (contents.ids.size() != n) outcome.broken = "IDs are not one per record";
    for (const ParticleF64& p : contents.records) {
      for (const double v : {p.x, p.y, p.z, p.vx, p.vy, p.vz, p.mass})
        if (!std::isfinite(v)) outcome.broken = "accepted a non-finite value";
      if (!kMassRange.contains(p.mass)) outcome.broken = "accepted a mass outside kMassRange";
    }
    if (!std::isfinite(contents.time)) outcome.broken = "accepted a non-finite time";
    if (contents.name != name || contents.format != "gadget-hdf5") outcome.broken = "name or format not set";
  } catch (const UsageError& e) {
    outcome.error = e.what();
    if (outcome.error.rfind(name + ": ", 0) != 0)
      outcome.broken = "message does not start with 'NAME: ': " + outcome.error;
    if (outcome.broken.empty()) outcome.broken = error_line_problem(outcome.error);
  }
  if (open_hdf5_objects() != 0 && outcome.broken.empty()) outcome.broken = "an HDF5 object was left open";
  return outcome;
}

}  // namespace coalesce::fuzz
