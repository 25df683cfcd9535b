// The records of a state as read (every value a double, exact for a float file) in the scalar of the
// precision a run steps in: the one conversion every state reader shares (.npy, Tipsy, GADGET HDF5).
#pragma once

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "sim/limits.h"
#include "sim/particle.h"
#include "sim/precision.h"
#include "sim/record_checks.h"

namespace coalesce {

namespace state_records_detail {

inline const double* fields_of(const ParticleF64& p) {
  return &p.x;
}

inline std::string value_text(double v, bool held_doubles) {
  return stored_value_text(v, !held_doubles);
}

// Positions beyond the precision's range would let two positions' difference overflow (sim/limits.h).
template <class Error>
void check_position(const std::string& name, const ParticleF64& p, std::size_t i, int k, bool held_doubles,
                    Precision precision) {
  const DoubleRange& range = precision == Precision::Fp32 ? kPositionRangeFp32 : kPositionRangeFp64;
  const double v = fields_of(p)[k];
  if (range.contains(v)) return;
  throw Error(name + ": position " + std::string(kRecordFieldNames[k]) + " = " + value_text(v, held_doubles) +
              " at particle " + std::to_string(i) + " is beyond the " + std::string(to_string(precision)) +
              " range of positions, " + describe(range) +
              " (beyond it two positions' difference can overflow); " +
              (precision == Precision::Fp32 ? "run in fp64 or rescale the state" : "rescale the state"));
}

}  // namespace state_records_detail

// Fp64: the records, positions checked. Fp32: each value rounded to the nearest float (exact for a file of
// floats). Throws Error (one line starting with `name`) for a position beyond the precision's range or a
// value beyond float's.
template <Precision P, class Error>
std::vector<ParticleRecord<RealFor<P>>> records_in_precision(const std::string& name,
                                                             const std::vector<ParticleF64>& records,
                                                             bool held_doubles) {
  using namespace state_records_detail;
  if constexpr (P == Precision::Fp64) {
    for (std::size_t i = 0; i < records.size(); ++i)
      for (int k = 0; k < 3; ++k) check_position<Error>(name, records[i], i, k, held_doubles, P);
    return records;
  } else {
    std::vector<Particle> out(records.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
      const double* from = fields_of(records[i]);
      float* to = &out[i].x;
      for (int k = 0; k < kFieldsPerParticle; ++k) {
        if (k < 3) check_position<Error>(name, records[i], i, k, held_doubles, P);
        to[k] = static_cast<float>(from[k]);  // exact for a file of floats; nearest float for doubles
        if (!std::isfinite(to[k]))
          throw Error(name + ": value " + value_text(from[k], held_doubles) + " at particle " +
                      std::to_string(i) + ", field " + kRecordFieldNames[k] +
                      " is beyond the float32 range (" + exact_text(FLT_MAX) +
                      "); expected values a float32 holds in fp32: run in fp64 or rescale the state");
      }
    }
    return out;
  }
}

}  // namespace coalesce
