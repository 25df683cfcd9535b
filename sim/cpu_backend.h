// The CPU backend: every layout and precision, both solvers, multi-threaded over particle ranges, on one
// instruction-set target: a SIMD build of the loops (sim/cpu_simd.h) or the scalar reference loops
// (sim/cpu_kernels.h) the SIMD ones and the CUDA kernels are tested against.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <new>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/backend.h"
#include "sim/cpu_info.h"
#include "sim/cpu_simd.h"
#include "sim/cpu_target.h"
#include "sim/layout_storage.h"
#include "sim/thread_pool.h"

namespace coalesce {

class CpuBackend final : public Backend {
 public:
  // threads == 0: usable_cpus() (affinity and cgroup quota, sim/usable_cpus.h). Throws std::invalid_argument
  // for particles <= 0 and for a target this CPU does not run (cpu_target_supported).
  CpuBackend(int particles, Layout layout, int threads = 0, Precision precision = Precision::Fp32,
             CpuTarget target = best_cpu_target());

  std::string name() const override;
  int particle_count() const override { return m_n; }
  Layout layout() const override { return m_layout; }
  Precision precision() const override { return m_precision; }
  // Measured on first use (the facts and ceilings take a moment): a --steps run never asks.
  const DeviceInfo& device_info() const override {
    if (!m_info) m_info = cpu_device_info(m_target);
    return *m_info;
  }

  void upload(const std::vector<Particle>& particles) override;
  void upload(const std::vector<ParticleF64>& particles) override;
  std::vector<Particle> download() override;
  std::vector<ParticleF64> download_f64() override;
  void set_layout(Layout layout) override;
  std::size_t set_precision(Precision precision) override;
  void step(const SimParams& params, double time) override;
  void step_range(const SimParams& params, double time, int begin, int end) override;
  std::unique_ptr<ExchangeBuffer> make_exchange_buffer() const override;
  void export_sources(int begin, int end, ExchangeBuffer& buffer) override;
  void import_sources(int begin, int end, const ExchangeBuffer& buffer) override;
  // Host memory only: MemorySpace::Device throws std::invalid_argument. All variants give identical output.
  void pack(PackVariant variant, float* out, MemorySpace space) override;
  // A host vector; every variant is the same loop here, so the preference is Vector.
  std::unique_ptr<PackTarget> make_pack_target() const override;
  PackVariant preferred_pack_variant() override { return PackVariant::Vector; }
  CUstream_st* native_stream() const override { return nullptr; }
  std::vector<KernelTiming> poll_timings() override;
  void synchronize() override {}
  // compute_diagnostics on a download: the CPU path is the reference, so it is not written twice.
  Diagnostics diagnostics(const SimParams& params, double time) override;
  // 20,000 for both solvers, as before backends computed diagnostics: beyond it all pairs on the host is
  // slow.
  int max_diagnostics_particles(Solver solver) const override;

  int thread_count() const { return m_pool.thread_count(); }
  CpuTarget target() const { return m_target; }

 private:
  // 64-byte aligned scratch for the staged force sources (what AVX-512's aligned loads need).
  struct AlignedFree {
    void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t{64}); }
  };
  using AlignedBytes = std::unique_ptr<std::byte[], AlignedFree>;

  // The state buffer in m_layout, the same storage and views the CUDA backend uses (sim/layout_storage.h).
  StateViews state() { return make_state_views(m_layout, m_precision, m_state.data(), m_n); }
  template <class Real>
  void store(const std::vector<ParticleRecord<Real>>& particles);  // into a fresh buffer for the format
  template <class Real>
  std::vector<ParticleRecord<Real>> load();
  // `scratch`: of `bytes`, the scratch written and read back (KernelTiming::scratch_bytes).
  void record(KernelKind kind, std::chrono::steady_clock::time_point start, double bytes, double interactions,
              double scratch = 0.0, std::string_view scratch_what = {});
  // The SIMD step's passes (m_simd set): forces through staged blocks, drift on the layout's own arrays.
  // Returns the bytes of the source rows all-pairs staged (0 for attractors).
  template <class View>
  std::size_t simd_forces(const View& view, const SimParams& params, double time, int begin, int end);
  template <class View>
  void simd_drift(const View& view, typename View::Scalar dt, int begin, int end);
  // The pool's parallel_for over bodies [begin, end): fn(first, last) per thread.
  template <class Fn>
  void parallel_range(int begin, int end, Fn&& fn);
  // The mutual all-pairs scheme (sim/cpu_mutual.h), scalar on every target: the CUDA kernel's reference.
  // Returns the bytes of its partial sums.
  template <class View>
  std::size_t mutual_forces(const View& view, const SimParams& params);
  // Rows x, y, z, m of `padded` scalars each, in m_scratch (grown when too small).
  template <class Real>
  Real* source_rows(std::size_t padded);

  int m_n;
  Layout m_layout;
  Precision m_precision;
  CpuTarget m_target;
  const SimdKernels* m_simd;  // null: the scalar reference loops
  ThreadPool m_pool;
  mutable std::optional<DeviceInfo> m_info;
  std::vector<Double4> m_state;  // state_bytes(m_layout, m_precision, m_n) bytes, 32-byte aligned elements
  std::vector<KernelTiming> m_timings;
  AlignedBytes m_scratch;
  std::size_t m_scratch_bytes = 0;
  std::vector<double> m_mutual_partials;  // the mutual scheme's slots, read as the state's scalar
};

}  // namespace coalesce
