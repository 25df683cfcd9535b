// The canonical particle record: the AoS layout's element and the N x 7 interchange format (.npy, tests),
// in each precision (sim/precision.h).
#pragma once

#include <cstddef>

#include "sim/common.h"

namespace coalesce {

// Natural, unpadded: 7 scalars, so consecutive records straddle 32-byte sectors (what a beginner writes).
template <class Real>
struct ParticleRecord {
  Real x, y, z;
  Real vx, vy, vz;
  Real mass;
};
using Particle = ParticleRecord<float>;      // 28 bytes
using ParticleF64 = ParticleRecord<double>;  // 56 bytes
static_assert(sizeof(Particle) == 7 * sizeof(float), "Particle must stay the natural 28-byte record");
static_assert(sizeof(ParticleF64) == 7 * sizeof(double), "ParticleF64 must stay the natural 56-byte record");

// The same record in another precision: exact from float to double, rounded to nearest from double to float.
template <class To, class From>
HOST_DEVICE inline ParticleRecord<To> record_cast(const ParticleRecord<From>& p) {
  return {static_cast<To>(p.x),  static_cast<To>(p.y),  static_cast<To>(p.z),   static_cast<To>(p.vx),
          static_cast<To>(p.vy), static_cast<To>(p.vz), static_cast<To>(p.mass)};
}

// How many of the records' values float cannot hold exactly (what record_cast<float> rounds).
template <class Records>
inline std::size_t count_rounded_to_float(const Records& records) {
  std::size_t rounded = 0;
  for (const auto& p : records) {
    const double values[] = {p.x, p.y, p.z, p.vx, p.vy, p.vz, p.mass};
    for (double v : values)
      if (static_cast<double>(static_cast<float>(v)) != v) ++rounded;
  }
  return rounded;
}

constexpr int kFieldsPerParticle = 7;  // x, y, z, vx, vy, vz, mass
constexpr int kRenderFloatsPerParticle = 4;  // x, y, z, speed

}  // namespace coalesce
