// The ceilings a memory-bound kernel's GB/s is compared with, one row each: how the bytes move, how the CPU
// measures it, and which kernels move their bytes that way. The GPU measures the copy alone (cudaMemcpy,
// kernels/device_probe.h); the CPU measures all three (sim/cpu_info.cpp), because its caches count an update
// in place and a copy into a second buffer differently (docs/perf.md, "Issue 30").
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include "sim/kernel_stats.h"

namespace coalesce {

enum class Ceiling { Copy, InPlace, ToOther };

struct CeilingInfo {
  Ceiling ceiling;
  std::string_view name;  // the table's, the JSON's and the panel's word for it
  int buffers_read;       // per element: what the GB/s of a measurement counts
  int buffers_written;
  std::string_view cpu_method;  // what the CPU measurement does, in words
};

inline constexpr std::array<CeilingInfo, 3> kCeilingTable{{
    {Ceiling::Copy, "copy", 1, 1,
     "memcpy of one buffer into another (glibc streams large copies past the cache: non-temporal stores)"},
    {Ceiling::InPlace, "in-place", 2, 1,
     "b[i] += a[i] over 32-bit words: two buffers read and the second written back where it was read, as "
     "integrate and the attractor kick update the state"},
    {Ceiling::ToOther, "to-other", 1, 1,
     "b[i] = a[i] ^ k over 32-bit words: one buffer read and another written with ordinary stores, as pack "
     "writes the render buffer and convert the new layout's buffer"},
}};
inline constexpr std::size_t kCeilingCount = kCeilingTable.size();
// Every ceiling moves words between two buffers: its working set, which the cache holds or does not.
inline constexpr std::size_t kCeilingBuffers = 2;

constexpr const CeilingInfo& ceiling_info(Ceiling c) {
  return kCeilingTable[static_cast<std::size_t>(c)];
}

// The ceiling of a memory-bound kernel: on a GPU the device copy for every kernel; on the CPU the one that
// moves bytes as the kernel does (the all-pairs forces are compute bound and have none: callers ask
// headline_metric first).
constexpr Ceiling kernel_ceiling(KernelKind kind, bool gpu) {
  if (gpu) return Ceiling::Copy;
  switch (kind) {
    case KernelKind::Forces:     // attractors: v += a(x), v read and written in place
    case KernelKind::Integrate:  // x += v dt in place
      return Ceiling::InPlace;
    case KernelKind::Pack:     // the state read, the render buffer written
    case KernelKind::Convert:  // the old layout's buffer read, the new one's written
      return Ceiling::ToOther;
  }
  return Ceiling::Copy;
}

}  // namespace coalesce
