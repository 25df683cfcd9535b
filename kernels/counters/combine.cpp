// kernels/counters/hardware_counters.h's combine(): plain arithmetic, built with and without CUDA.
#include "kernels/counters/hardware_counters.h"

namespace coalesce {

RowCounters combine(const std::vector<RowCounters>& parts) {
  RowCounters sum;
  double sm_weighted = 0.0, dram_weighted = 0.0, weight = 0.0;
  for (const RowCounters& p : parts) {
    sum.dram_read_bytes += p.dram_read_bytes;
    sum.dram_write_bytes += p.dram_write_bytes;
    sum.global_load_sectors += p.global_load_sectors;
    sum.global_load_requests += p.global_load_requests;
    sum.global_store_sectors += p.global_store_sectors;
    sum.global_store_requests += p.global_store_requests;
    sum.shared_load_wavefronts += p.shared_load_wavefronts;
    sum.shared_load_requests += p.shared_load_requests;
    sum.shared_store_wavefronts += p.shared_store_wavefronts;
    sum.shared_store_requests += p.shared_store_requests;
    sum.duration_ns += p.duration_ns;
    // A part without a duration still counts, equally weighted, so two unweighted parts average.
    const double w = p.duration_ns > 0 ? p.duration_ns : 1.0;
    sm_weighted += w * p.sm_clock_hz;
    dram_weighted += w * p.dram_clock_hz;
    weight += w;
  }
  if (weight > 0) {
    sum.sm_clock_hz = sm_weighted / weight;
    sum.dram_clock_hz = dram_weighted / weight;
  }
  return sum;
}

}  // namespace coalesce
