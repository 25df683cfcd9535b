// The canonical particle record: the AoS layout's element and the N x 7 interchange format (.npy, tests).
#pragma once

#include "sim/common.h"

namespace coalesce {

// Natural, unpadded: 28 bytes, so consecutive records straddle 32-byte sectors (what a beginner writes).
struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float mass;
};
static_assert(sizeof(Particle) == 28, "Particle must stay the natural 28-byte record");

constexpr int kFieldsPerParticle = 7;  // x, y, z, vx, vy, vz, mass
constexpr int kRenderFloatsPerParticle = 4;  // x, y, z, speed

}  // namespace coalesce
