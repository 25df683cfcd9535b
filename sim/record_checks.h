// The checks every state reader makes on the records it read (.npy, Tipsy): each value finite and each
// mass in kMassRange, with the words of the one line that names the first that is not.
#pragma once

#include <cmath>
#include <cstddef>
#include <string>

#include "sim/limits.h"
#include "sim/particle.h"

namespace coalesce {

constexpr const char* kRecordFieldNames[kFieldsPerParticle] = {"x", "y", "z", "vx", "vy", "vz", "mass"};

// The fewest digits that read back as the value in the scalar the file stored it in (1e300, not
// 1.0000000000000001e+300), so a float value is not shown with the digits of its double.
inline std::string stored_value_text(double v, bool stored_as_float) {
  return stored_as_float ? exact_text(static_cast<float>(v)) : exact_text(v);
}

// "" when every value of `record` (particle `index` of its file) is finite and its mass in kMassRange, else
// what is wrong and what is expected, for the line after the file's name.
inline std::string record_problem(const ParticleF64& record, std::size_t index, bool stored_as_float) {
  const double* f = &record.x;
  for (int k = 0; k < kFieldsPerParticle; ++k)
    if (!std::isfinite(f[k]))
      return "non-finite value (" + stored_value_text(f[k], stored_as_float) + ") at particle " +
             std::to_string(index) + ", field " + kRecordFieldNames[k] + "; expected finite values only";
  if (!kMassRange.contains(record.mass))  // the value read, in either precision
    return "mass " + stored_value_text(record.mass, stored_as_float) + " at particle " +
           std::to_string(index) + "; expected " + describe(kMassRange);
  return {};
}

}  // namespace coalesce
