// What a backend reports per kernel launch: which kernel, how long, and the bytes it must move.
#pragma once

#include <string_view>

#include "sim/layout.h"
#include "sim/precision.h"

namespace coalesce {

enum class KernelKind { Forces, Integrate, Pack, Convert };

inline std::string_view to_string(KernelKind k) {
  switch (k) {
    case KernelKind::Forces: return "forces";
    case KernelKind::Integrate: return "integrate";
    case KernelKind::Pack: return "pack";
    case KernelKind::Convert: return "convert";
  }
  return "?";
}

struct KernelTiming {
  KernelKind kernel;
  Layout layout;
  double milliseconds;
  double bytes;         // bytes the kernel must move: each input read once, each output written once
  double interactions;  // body-body (or body-attractor) interactions; 0 where it does not apply
  Precision precision = Precision::Fp32;  // of the state the kernel read and wrote
  // Of `bytes`: scratch the kernel wrote and read back (the all-pairs forces' partial sums; the CPU's staged
  // source rows), so a reader can tell them from the state's bytes. 0 for every other kernel.
  double scratch_bytes = 0;
  std::string_view scratch_what{};  // what the scratch is (sim/byte_counts.h: kPartialSums, kStagedSources)

  double gigabytes_per_second() const { return milliseconds > 0 ? bytes / (milliseconds * 1e6) : 0.0; }
  double interactions_per_second() const { return milliseconds > 0 ? interactions / (milliseconds * 1e-3) : 0.0; }
};

}  // namespace coalesce
