// The list of lab experiments, in the order the articles introduce them.
#include "kernels/lab/lab_registry.h"

#include "kernels/lab/lab_experiments.h"

namespace coalesce::lab {

const std::vector<LabExperiment>& lab_experiments() {
  static const std::vector<LabExperiment> experiments = {
      {"copy", "coalesced copy vs cudaMemcpy", "2 x N x 4 B",
       "coalesced is not enough: one float per thread keeps too few bytes in flight, 81% of cudaMemcpy on "
       "an H100 and only 63% on the faster H200 (float4 reached 101% on both)",
       run_copy_experiment},
      {"strided", "strided copy, stride 1..32", "useful: 2 x (N/stride) x 4 B",
       "GB/s counts useful bytes only; DRAM still moves whole sectors, so the useful GB/s falls about as "
       "2/(stride+1) of copy (H100: 62, 41, 23, 12% for stride 2, 4, 8, 16; H200: 56, 39, 23, 12%)",
       run_strided_experiment},
      {"offset", "copy reading at a misaligned offset", "2 x (N-32) x 4 B",
       "a misaligned warp touches 5 sectors instead of 4, but L2 serves the extra one: about 3% slower on "
       "an H100 and on an H200",
       run_offset_experiment},
      {"vecadd", "vector add, swapped and shifted lanes (art. 001)", "3 x N x 4 B",
       "coalescing is about which sectors a warp touches, not which lane reads which word: swapped pairs "
       "cost nothing; one lane outside the warp's 128 B lost 6% of the GB/s on an H100, 12% on an H200",
       run_vecadd_experiment},
      {"float4", "scalar vs float4 copy", "2 x N x 4 B",
       "16-byte accesses put 4x the bytes in flight per load: 101% of cudaMemcpy, 1.25x over scalar on an "
       "H100 and 1.59x on an H200 (article 000: 1.5-2x)",
       run_float4_experiment},
      {"gridstride", "grid-stride loop vs one thread per element", "2 x N x 4 B",
       "a resident grid that loops saves block launch and retirement: 1.01x on an H100, 1.13x on an H200 "
       "(article 000: 1.2-1.5x), still one 4-byte load in flight per thread",
       run_gridstride_experiment},
      {"particles", "AoS vs SoA particle update (art. 003)", "3 or 9 x N x 4 B",
       "AoS drags every 28-byte record through DRAM: x alone ran 4.4x (H100) / 3.8x (H200) slower than "
       "SoA; all fields, read once per record, only 1.6x / 1.7x (article 003: 4.5x)",
       run_particles_experiment},
      {"transpose", "matrix transpose vs cublasSgeam and copy", "2 x side^2 x 4 B",
       "tiling makes both sides coalesced, padding removes the 32-way column conflicts (1.7x), and "
       "more loads in flight per thread do the rest: 95% of a same-size copy; 99.7% of Sgeam on an H100, "
       "104% on an H200",
       run_transpose_experiment},
      {"banks", "shared-memory bank conflicts, 1..32-way and padded", "threads x iterations x 4 B (shared)",
       "a k-way conflict costs k shared-memory wavefronts (H100 and H200: about x1.95 to x30.1 time for "
       "k = 2..32); one pad word per row brings it back to x1.00",
       run_banks_experiment},
      {"ldg", "plain vs const __restrict__ vs __ldg loads", "2 x N x 4 B",
       "on sm_90 global loads already go through L1: plain, const __restrict__ and __ldg() ran within "
       "0.4% of each other on an H100 and an H200",
       run_ldg_experiment},
      {"constant", "constant-memory broadcast vs global vs divergent", "2 x N x 4 B",
       "constant memory is fast only when a warp reads one address: 16 addresses per warp ran 18x (H100) "
       "to 20x (H200) slower than the broadcast",
       run_constant_experiment},
  };
  return experiments;
}

const LabExperiment* find_lab_experiment(std::string_view name) {
  for (const LabExperiment& e : lab_experiments())
    if (e.name == name) return &e;
  return nullptr;
}

}  // namespace coalesce::lab
