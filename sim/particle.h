// The canonical particle record: the AoS layout's element and the N x 7 interchange format (.npy, tests),
// in each precision (sim/precision.h).
#pragma once

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

constexpr int kFieldsPerParticle = 7;  // x, y, z, vx, vy, vz, mass
constexpr int kRenderFloatsPerParticle = 4;  // x, y, z, speed

}  // namespace coalesce
