// The GPU's own counters (CUPTI, issue 11), beside the GB/s the app computes from byte formulas. Two
// instruments: a counter pass that replays a row's launches under CUPTI's range profiler (bench, lab),
// and a sampler that reads DRAM throughput and clocks at a fixed interval while the viewer runs (CUPTI
// PM sampling). Where counters cannot be read (no permission, no support on this GPU, CPU backend, a
// build without CUDA), each says why in one line and everything else works unchanged.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/counters/summary.h"

namespace coalesce {

// Whether an instrument can run here; `reason` is one line when it cannot (e.g. "hardware counters
// unavailable: profiling is restricted to admin users (NVreg_RestrictProfilingToAdminUsers=1)").
struct CounterAvailability {
  bool available = false;
  std::string reason;
};

// What the hardware counted over one row's launches (sums over the range; clocks are averages).
struct RowCounters {
  double dram_read_bytes = 0.0;
  double dram_write_bytes = 0.0;
  double global_load_sectors = 0.0;    // L1/TEX sectors of global loads
  double global_load_requests = 0.0;   // ... and the requests (warp instructions) they served
  double global_store_sectors = 0.0;
  double global_store_requests = 0.0;
  double shared_load_wavefronts = 0.0;   // shared-memory wavefronts: > requests means bank conflicts
  double shared_load_requests = 0.0;
  double shared_store_wavefronts = 0.0;
  double shared_store_requests = 0.0;
  double sm_clock_hz = 0.0;    // average over the range
  double dram_clock_hz = 0.0;  // average over the range
  double duration_ns = 0.0;    // GPU time of the range (gpu__time_duration.sum): weights the clocks
};

// One kernel launch's counters, as the range profiler's automatic ranges give them (one per launch).
struct KernelCounters {
  std::string kernel;  // the kernel's function name as CUPTI names the range
  RowCounters counters;
};

// What a report row carries: the counters, or why there are none (one line).
struct CounterReading {
  bool available = false;
  std::string reason;
  RowCounters values;
  int kernels = 0;  // kernel launches the values add up
};

// Sums of bytes, sectors, requests and wavefronts; clocks averaged, weighted by each part's duration.
RowCounters combine(const std::vector<RowCounters>& parts);

// Replays a row's launches under the range profiler, in a pass apart from the timed one.
class CounterPass {
 public:
  virtual ~CounterPass() = default;
  // Runs `launches` (the row's kernel launches on the calling thread's current device and stream, as
  // many times as the profiler needs passes) and returns what the hardware counted for one call.
  virtual RowCounters measure(const std::function<void()>& launches) = 0;
  // The same, one entry per kernel launch in launch order, so a caller whose one call runs several
  // kernels (a simulation step: forces, then integrate) can tell them apart.
  virtual std::vector<KernelCounters> measure_kernels(const std::function<void()>& launches) = 0;
};

// One sample of the PM sampler: the interval it covers and the rates over it.
struct HardwareSample {
  double seconds = 0.0;  // end of the interval, on a clock that starts at the sampler's creation
  double dram_read_bytes_per_second = 0.0;
  double dram_write_bytes_per_second = 0.0;
  double sm_clock_hz = 0.0;
  double dram_clock_hz = 0.0;
};

class HardwareSampler {
 public:
  virtual ~HardwareSampler() = default;
  // Samples gathered since the last call, oldest first. make_hardware_sampler's sampler decodes on a
  // thread of its own, so this only takes what is finished; it throws once that thread has failed.
  virtual std::vector<HardwareSample> poll() = 0;
  // Wall time of each decode, in ms, where decoding runs off the caller's thread; none where poll()
  // itself decodes (its caller times it then).
  virtual std::optional<Summary> decode_milliseconds() const { return std::nullopt; }
};

// Probes CUPTI on CUDA device `device` once; the reason says why not in one line.
CounterAvailability counter_availability(int device);
// A counter pass on `device`, or null with `why` set.
std::unique_ptr<CounterPass> make_counter_pass(int device, std::string& why);
// A sampler on `device` reading every `interval_ms` milliseconds, or null with `why` set.
std::unique_ptr<HardwareSampler> make_hardware_sampler(int device, double interval_ms, std::string& why);

}  // namespace coalesce
