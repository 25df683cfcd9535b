// The one interface every frame step goes through, on the CPU or on a GPU. Each call reports what it
// did (time and bytes per kernel) through poll_timings(), which never blocks.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/cpu_facts.h"
#include "sim/diagnostics.h"
#include "sim/kernel_stats.h"
#include "sim/layout.h"
#include "sim/particle.h"
#include "sim/precision.h"
#include "sim/sim_params.h"

struct CUstream_st;  // cudaStream_t, named without the CUDA headers: sim/ never includes them

namespace coalesce {

// Where a pack writes its N x 4 floats (x, y, z, speed): host memory, or device memory such as a
// CUDA-mapped OpenGL buffer.
enum class MemorySpace { Host, Device };

// What the panel and the JSON show about the machine a backend runs on (app/services/device_report.h writes
// it). A value that could not be known is empty, never 0: reports show it as unknown and write null.
struct DeviceInfo {
  bool gpu = false;                     // a CUDA device: SMs and device memory; false for the CPU
  std::string name;                     // "NVIDIA H100 80GB HBM3", or the CPU model
  std::string driver;                   // NVIDIA kernel driver release, "580.159.04"; empty if none or unreadable
  std::string cuda_driver;              // the CUDA version the driver supports, "13.0"; empty for the CPU
  std::string cuda_runtime;             // the CUDA runtime this build links, "13.0"; empty for the CPU
  int multiprocessors = 0;              // SMs, or hardware threads for the CPU
  double memory_bytes = 0;              // total device memory
  std::optional<int> memory_clock_khz;  // from cudaDevAttrMemoryClockRate
  std::optional<int> sm_clock_khz;      // peak SM clock, from cudaDevAttrClockRate
  std::optional<int> bus_width_bits;    // from cudaDevAttrGlobalMemoryBusWidth
  std::optional<double> theoretical_peak_gbps;  // 2 x memory clock x bus width / 8
  double copy_peak_gbps = 0;            // copy ceiling, bytes read + written, measured at start (GPU: device
                                        // to device; CPU: cpu->copy says how)
  std::optional<CpuFacts> cpu;          // the CPU backend's machine (sim/cpu_facts.h); none on a GPU

  // A ceiling's GB/s (sim/memory_ceiling.h): the copy on either backend, the others measured on the CPU
  // only; 0 where not measured.
  double ceiling_gbps(Ceiling c) const {
    if (c == Ceiling::Copy) return copy_peak_gbps;
    return cpu ? cpu->ceiling(c).gbps : 0.0;
  }
};

// N x 4 floats a pack can write into, in the memory the backend packs to (as the viewer's render buffer
// would be): device memory for a GPU backend, host memory for the CPU. Owns its storage.
class PackTarget {
 public:
  virtual ~PackTarget() = default;
  virtual float* data() = 0;
  virtual MemorySpace space() const = 0;
};

// Host memory for N x {x, y, z, m} of a state's scalar (Backend::make_exchange_buffer).
class ExchangeBuffer {
 public:
  virtual ~ExchangeBuffer() = default;
  virtual void* data() = 0;
  const void* data() const { return const_cast<ExchangeBuffer*>(this)->data(); }
  virtual std::size_t bytes() const = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;  // "cpu (2 threads)", "cuda (NVIDIA H100 ...)"
  virtual int particle_count() const = 0;
  virtual Layout layout() const = 0;
  virtual Precision precision() const = 0;
  virtual const DeviceInfo& device_info() const = 0;

  // Replaces the state (N x 7 canonical records) and stores it in the current layout and precision: fp32
  // records are exact in either precision; fp64 records are rounded to nearest in fp32.
  virtual void upload(const std::vector<Particle>& particles) = 0;
  virtual void upload(const std::vector<ParticleF64>& particles) = 0;
  // Reads the state back as canonical records, in particle order. Synchronizes. download() rounds an fp64
  // state to float; download_f64() is exact in either precision.
  virtual std::vector<Particle> download() = 0;
  virtual std::vector<ParticleF64> download_f64() = 0;

  // Converts the stored state to `layout` in place; values are preserved bitwise.
  virtual void set_layout(Layout layout) = 0;
  // Converts the stored state to `precision` in place: fp32 -> fp64 is exact, fp64 -> fp32 rounds to
  // nearest. Returns how many stored values changed by rounding (0: the state was kept exactly).
  virtual std::size_t set_precision(Precision precision) = 0;

  // One symplectic Euler step at simulation time `time`: forces (kick), then integrate (drift).
  virtual void step(const SimParams& params, double time) = 0;
  // A rank's share of step() (app/services/rank_stepper.h): the kick of bodies [begin, end) by all N bodies,
  // then their drift; the other bodies are left as they are. Each body's arithmetic is step()'s, so slices
  // that cover the state give step()'s state bit for bit. One-sided forces: a mutual pair spans two slices,
  // so ForceScheme::Mutual throws std::invalid_argument unless the range is the whole state.
  virtual void step_range(const SimParams& params, double time, int begin, int end) = 0;

  // What ranks exchange each step: N x {x, y, z, m} in the state's precision (4 x scalar_bytes each), in host
  // memory the backend copies to and from quickly (pinned for a GPU). Owns its storage.
  virtual std::unique_ptr<ExchangeBuffer> make_exchange_buffer() const = 0;
  // {x, y, z, m} of bodies [begin, end) into their places in `buffer`. Synchronizes.
  virtual void export_sources(int begin, int end, ExchangeBuffer& buffer) = 0;
  // Position and mass of bodies [begin, end) from their places in `buffer`. Synchronizes.
  virtual void import_sources(int begin, int end, const ExchangeBuffer& buffer) = 0;

  // Transposes the state into `out` as N x {x, y, z, |v|} floats.
  virtual void pack(PackVariant variant, float* out, MemorySpace space) = 0;
  // A buffer of particle_count() x 4 floats in the memory space this backend packs to.
  virtual std::unique_ptr<PackTarget> make_pack_target() const = 0;
  // The variant to pack with when the user chose none: the fastest measured (CUDA), else Vector.
  virtual PackVariant preferred_pack_variant() = 0;
  // The stream this backend queues its work on, so CUDA-GL interop maps on it; nullptr for the CPU.
  virtual CUstream_st* native_stream() const = 0;

  // Timings of launches that have completed since the last call; never waits for the device.
  virtual std::vector<KernelTiming> poll_timings() = 0;

  // Waits for all queued work (tests, exit, screenshots).
  virtual void synchronize() = 0;

  // Between hold_launches() and release_launches() the device starts nothing, so the launches in between are
  // all queued when it starts them and their timings are the device's alone (bench's short calls). A
  // backend that times on the host runs as it goes: nothing to hold.
  virtual void hold_launches() {}
  virtual void release_launches() {}

  // Energy and momentum of the current state with compute_diagnostics' definitions, in double precision,
  // computed where the state lives (no download for the GPU). Synchronizes; not timed: not frame work.
  virtual Diagnostics diagnostics(const SimParams& params, double time) = 0;
  // The largest N for which diagnostics() is quick enough to run around a --steps run (all-pairs is O(N^2)).
  virtual int max_diagnostics_particles(Solver solver) const = 0;
  // Whether diagnostics() is affordable for this backend's N under `solver`.
  bool diagnostics_affordable(Solver solver) const {
    return particle_count() <= max_diagnostics_particles(solver);
  }
};

// Calls fn with the state as canonical records of the backend's own precision (float or double), so nothing
// is rounded on the way: layout conversion, diagnostics and --save-state read the state this way.
template <class Fn>
void with_records(Backend& backend, Fn&& fn) {
  if (backend.precision() == Precision::Fp64)
    fn(backend.download_f64());
  else
    fn(backend.download());
}

}  // namespace coalesce
