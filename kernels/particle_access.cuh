// Device-only helpers shared by the kernels. Whole-record access (position + mass as one float4, load and
// store of a particle) belongs to the layout views, host-device code in sim/layout_views.h.
#pragma once

#include "sim/layout_views.h"

namespace coalesce::gpu {

// Global index of this thread in a 1-D grid, in 64 bits so the last block of a huge N cannot overflow.
__device__ inline long long global_thread_index() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}

// A block's AoS records move between global and shared memory as one contiguous byte range, so every
// global access is coalesced although each record is 28 (fp32) or 56 (fp64) bytes. Whole blocks move
// 16-byte vectors (a block of kThreads records starts on a 16-byte boundary when kThreads is a multiple of
// 4); the last, partial block moves scalars. Each thread then reads or writes its own record in shared
// memory: the scalar stride 7 is odd, so those accesses are free of bank conflicts. `stage` must be 16-byte
// aligned.
template <int kThreads, class Real = float>
struct AosBlockStage {
  static_assert(kThreads % 4 == 0, "whole blocks must start on a 16-byte boundary");
  using Record = ParticleRecord<Real>;
  static constexpr int kVectors = static_cast<int>(kThreads * sizeof(Record) / 16);
  static constexpr int kVectorsPerThread = (kVectors + kThreads - 1) / kThreads;

  __device__ static void load(const Record* records, long long first, int count, Record* stage) {
    copy(reinterpret_cast<const Real*>(records + first), reinterpret_cast<Real*>(stage), count);
  }
  __device__ static void store(const Record* stage, Record* records, long long first, int count) {
    copy(reinterpret_cast<const Real*>(stage), reinterpret_cast<Real*>(records + first), count);
  }

 private:
  __device__ static void copy(const Real* from, Real* to, int count) {
    if (count == kThreads) {
      const float4* f = reinterpret_cast<const float4*>(from);
      float4* t = reinterpret_cast<float4*>(to);
      float4 v[kVectorsPerThread];
#pragma unroll
      for (int k = 0; k < kVectorsPerThread; ++k) {  // every load in flight before the first store
        const int at = k * kThreads + static_cast<int>(threadIdx.x);
        if (at < kVectors) v[k] = f[at];
      }
#pragma unroll
      for (int k = 0; k < kVectorsPerThread; ++k) {
        const int at = k * kThreads + static_cast<int>(threadIdx.x);
        if (at < kVectors) t[at] = v[k];
      }
      return;
    }
    const int words = count * kFieldsPerParticle;
    for (int w = static_cast<int>(threadIdx.x); w < words; w += kThreads) to[w] = from[w];
  }
};

}  // namespace coalesce::gpu
