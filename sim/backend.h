// The one interface every frame step goes through, on the CPU or on a GPU. Each call reports what it
// did (time and bytes per kernel) through poll_timings(), which never blocks.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "sim/bench_timing.h"
#include "sim/cpu_facts.h"
#include "sim/diagnostics.h"
#include "sim/force_error.h"
#include "sim/force_method.h"
#include "sim/interop_stream.h"
#include "sim/kernel_stats.h"
#include "sim/layout.h"
#include "sim/limits.h"
#include "sim/particle.h"
#include "sim/precision.h"
#include "sim/rank_exchange.h"
#include "sim/sim_params.h"
#include "sim/tree_settings.h"

namespace coalesce {

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

// The state as canonical records of its own precision (float or double): nothing is rounded on the way.
using StateRecords = std::variant<std::vector<Particle>, std::vector<ParticleF64>>;
// Records lent to Backend::upload, of either precision, not copied.
using RecordsView = std::variant<const std::vector<Particle>*, const std::vector<ParticleF64>*>;

// The one interface every frame step goes through. What only one client needs sits behind an accessor: the
// ranks' exchange (sim/rank_exchange.h), bench's timing (sim/bench_timing.h), the viewer's interop stream
// (sim/interop_stream.h).
class Backend {
 public:
  virtual ~Backend() = default;

  virtual std::string name() const = 0;  // "cpu (2 threads)", "cuda (NVIDIA H100 ...)"
  int particle_count() const { return m_n; }
  Layout layout() const { return m_layout; }
  Precision precision() const { return m_precision; }
  virtual const DeviceInfo& device_info() const = 0;

  // Replaces the state (N x 7 canonical records) and stores it in the current layout and precision: fp32
  // records are exact in either precision; fp64 records are rounded to nearest in fp32.
  virtual void upload(RecordsView records) = 0;
  void upload(const std::vector<Particle>& particles) { upload(RecordsView{&particles}); }
  void upload(const std::vector<ParticleF64>& particles) { upload(RecordsView{&particles}); }
  // Reads the state back as canonical records of its own precision, in particle order. Synchronizes.
  virtual StateRecords download_records() = 0;
  // The same as floats (an fp64 state rounded to nearest) or as doubles (exact in either precision).
  std::vector<Particle> download();
  std::vector<ParticleF64> download_f64();

  // Converts the stored state to `layout` in place; values are preserved bitwise.
  virtual void set_layout(Layout layout) = 0;
  // Converts the stored state to `precision` in place: fp32 -> fp64 is exact, fp64 -> fp32 rounds to
  // nearest. Returns how many stored values changed by rounding (0: the state was kept exactly).
  virtual std::size_t set_precision(Precision precision) = 0;

  // The force method step() computes with, kept like the layout and the precision: named by the run, or
  // auto's measured choice (sim/auto_choice.h). One-sided all-pairs until set. A row this backend has no
  // solver for (ForceMethodInfo::on_cpu/on_gpu) throws std::invalid_argument and changes nothing.
  ForceMethod force_method() const { return m_method; }
  void set_force_method(ForceMethod method);
  // The tree method's accuracy and shape (--theta), kept beside the method: not physics, so not SimParams.
  // Read by the tree solvers at each step's start; a theta outside kThetaRange (sim/limits.h) throws
  // std::invalid_argument and changes nothing.
  const TreeSettings& tree_settings() const { return m_tree_settings; }
  void set_tree_settings(const TreeSettings& settings);

  // One symplectic Euler step at simulation time `time` with the force method: forces (kick), then
  // integrate (drift).
  void step(const SimParams& params, double time) { step_range(params, time, 0, m_n); }
  // A rank's share of step() (app/ranks/rank_stepper.h): the kick of bodies [begin, end) by all N bodies,
  // then their drift; the other bodies are left as they are. Each body's arithmetic is step()'s, so slices
  // that cover the state give step()'s state bit for bit. A method without rank_slices (mutual: a pair spans
  // two slices) throws std::invalid_argument unless the range is the whole state.
  virtual void step_range(const SimParams& params, double time, int begin, int end) = 0;

  // Transposes the state into `out` as N x {x, y, z, |v|} floats.
  virtual void pack(PackVariant variant, float* out, MemorySpace space) = 0;
  // The median of a few packs of `variant` into scratch, timed apart from poll_timings()'s; none where the
  // variants are one loop (the CPU). preferred_pack_variant() chooses with it.
  virtual std::optional<double> pack_median_ms(PackVariant variant) = 0;
  // The variant to pack with when the user chose none: the fastest measured for the current layout and
  // precision, measured once each (sim/auto_choice.cpp, beside --forces auto), else Vector.
  PackVariant preferred_pack_variant();
  int pack_variant_timings() const { return m_pack_variant_timings; }  // how many times it measured

  // Timings of launches that have completed since the last call; never waits for the device.
  virtual std::vector<KernelTiming> poll_timings() = 0;

  // Waits for all queued work (tests, exit, screenshots).
  virtual void synchronize() = 0;

  // Energy and momentum of the current state under the force method's physics, with compute_diagnostics'
  // definitions, in double precision, computed where the state lives (no download for the GPU).
  // Synchronizes; not timed: not frame work.
  virtual Diagnostics diagnostics(const SimParams& params, double time) = 0;
  // The largest N for which diagnostics() is quick enough to run around a --steps run under the force
  // method: the pair potential is O(N^2), the attractors' O(N k), the tree's own potential (where the backend
  // has one: Diagnostics::tree_theta) O(N log N).
  int max_diagnostics_particles() const {
    if (m_method == ForceMethod::Tree) return m_diagnostics_limits.tree;
    return method_info(m_method).physics == Physics::PairGravity ? m_diagnostics_limits.pairs
                                                                 : m_diagnostics_limits.attractors;
  }
  bool diagnostics_affordable() const { return m_n <= max_diagnostics_particles(); }

  // The force method's accelerations of `targets` beside the exact float64 direct sum's, for an
  // approximate method's error (bench's tree rows, the panel's check); none for an exact method.
  // Synchronizes.
  virtual std::optional<AccelerationSample> sample_accelerations(const SimParams& params,
                                                                 const std::vector<int>& targets) = 0;
  // The tree's counts and stage times of its last kick; none for another method or before a kick.
  virtual std::optional<TreeReport> tree_report() = 0;

  // What one client needs: the ranks' exchange, bench's timing, the viewer's stream (nullptr: no GPU).
  virtual RankExchange& rank_exchange() = 0;
  virtual BenchTiming& bench_timing() = 0;
  virtual InteropStream* interop_stream() { return nullptr; }

 protected:
  struct DiagnosticsLimits {
    int pairs;
    int attractors;
    int tree;  // the pairs' limit where the tree runs are measured by the exact pair sum
  };
  // Which solvers a row promises this backend (ForceMethodInfo::on_cpu/on_gpu): known at construction, not
  // from device_info(), which the CPU measures on first use (seconds) and a --steps run never asks.
  enum class Processor { Cpu, Gpu };
  Backend(int particles, Layout layout, Precision precision, Processor processor, DiagnosticsLimits limits)
      : m_n(particles),
        m_layout(layout),
        m_precision(precision),
        m_processor(processor),
        m_diagnostics_limits(limits) {}

  int m_n;
  Layout m_layout;
  Precision m_precision;
  ForceMethod m_method = ForceMethod::OneSidedAllPairs;
  TreeSettings m_tree_settings;  // the solvers' factories lend it to the tree solvers by reference

 private:
  Processor m_processor;
  DiagnosticsLimits m_diagnostics_limits;
  std::array<std::array<std::optional<PackVariant>, kLayoutCount>, kPrecisionCount> m_fastest_pack{};
  int m_pack_variant_timings = 0;
};

inline void Backend::set_force_method(ForceMethod method) {
  const ForceMethodInfo& row = method_info(method);
  const bool gpu = m_processor == Processor::Gpu;
  if (!(gpu ? row.on_gpu : row.on_cpu))
    throw std::invalid_argument("the " + std::string(row.name) + " method has no " + (gpu ? "GPU" : "CPU") +
                                " solver; use --backend " + (gpu ? "cpu" : "cuda"));
  m_method = method;
}

inline void Backend::set_tree_settings(const TreeSettings& settings) {
  if (!kThetaRange.contains(settings.theta) || settings.leaf_size < 1 || settings.group_size < 1)
    throw std::invalid_argument("tree settings out of range: theta must be in [0, " +
                                exact_text(kThetaRange.hi) + "], leaf and group sizes at least 1");
  m_tree_settings = settings;
}

// The stream interop maps on: the GPU backend's, or nullptr (CUDA's default stream) for the CPU's.
inline CUstream_st* native_stream_of(Backend& backend) {
  InteropStream* stream = backend.interop_stream();
  return stream ? stream->native_stream() : nullptr;
}

namespace detail {
template <class Real>
std::vector<ParticleRecord<Real>> records_as(StateRecords&& records) {
  return std::visit(
      [](auto&& stored) {
        using Stored = typename std::decay_t<decltype(stored)>::value_type;
        if constexpr (std::is_same_v<Stored, ParticleRecord<Real>>) {
          return std::move(stored);
        } else {
          std::vector<ParticleRecord<Real>> out(stored.size());
          for (std::size_t i = 0; i < stored.size(); ++i) out[i] = record_cast<Real>(stored[i]);
          return out;
        }
      },
      std::move(records));
}
}  // namespace detail

inline std::vector<Particle> Backend::download() {
  return detail::records_as<float>(download_records());
}
inline std::vector<ParticleF64> Backend::download_f64() {
  return detail::records_as<double>(download_records());
}

// Calls fn with the state as canonical records of the backend's own precision (float or double), so nothing
// is rounded on the way: layout conversion, diagnostics and --save-state read the state this way.
template <class Fn>
void with_records(Backend& backend, Fn&& fn) {
  std::visit([&](const auto& records) { fn(records); }, backend.download_records());
}

}  // namespace coalesce
