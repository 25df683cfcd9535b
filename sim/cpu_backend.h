// The CPU backend: every layout and precision, both solvers, multi-threaded over particle ranges, on one
// instruction-set target: a SIMD build of the loops (sim/cpu_simd.h) or the scalar reference loops
// (sim/cpu_kernels.h) the SIMD ones and the CUDA kernels are tested against.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "sim/backend.h"
#include "sim/force_solver.h"
#include "sim/cpu_info.h"
#include "sim/cpu_sources.h"
#include "sim/cpu_simd.h"
#include "sim/cpu_target.h"
#include "sim/layout_storage.h"
#include "sim/thread_pool.h"

namespace coalesce {

class CpuBackend final : public Backend, public RankExchange, public BenchTiming {
 public:
  // threads == 0: usable_cpus() (affinity and cgroup quota, sim/usable_cpus.h). Throws std::invalid_argument
  // for particles <= 0 and for a target this CPU does not run (cpu_target_supported).
  CpuBackend(int particles, Layout layout, int threads = 0, Precision precision = Precision::Fp32,
             CpuTarget target = best_cpu_target());

  std::string name() const override;
  // Measured on first use (the facts and ceilings take a moment): a --steps run never asks.
  const DeviceInfo& device_info() const override {
    if (!m_info) m_info = cpu_device_info(m_target);
    return *m_info;
  }

  using Backend::upload;
  void upload(RecordsView records) override;
  StateRecords download_records() override;
  void set_layout(Layout layout) override;
  std::size_t set_precision(Precision precision) override;
  void step_range(const SimParams& params, double time, int begin, int end) override;
  std::unique_ptr<ExchangeBuffer> make_exchange_buffer() const override;
  void export_sources(int begin, int end, ExchangeBuffer& buffer) override;
  void import_sources(int begin, int end, const ExchangeBuffer& buffer) override;
  // Host memory only: MemorySpace::Device throws std::invalid_argument. All variants give identical output.
  void pack(PackVariant variant, float* out, MemorySpace space) override;
  // A host vector.
  std::unique_ptr<PackTarget> make_pack_target() const override;
  // Every variant is the same loop here: nothing to measure, so the preference is Vector.
  std::optional<double> pack_median_ms(PackVariant /*variant*/) override { return std::nullopt; }
  std::vector<KernelTiming> poll_timings() override;
  void synchronize() override {}
  // compute_diagnostics on a download: the CPU path is the reference, so it is not written twice.
  Diagnostics diagnostics(const SimParams& params, double time) override;
  std::optional<AccelerationSample> sample_accelerations(const SimParams& params,
                                                         const std::vector<int>& targets) override;
  std::optional<TreeReport> tree_report() override;
  RankExchange& rank_exchange() override { return *this; }
  BenchTiming& bench_timing() override { return *this; }

  int thread_count() const { return m_pool.thread_count(); }
  CpuTarget target() const { return m_target; }

 private:
  // The state buffer in m_layout, the same storage and views the CUDA backend uses (sim/layout_storage.h).
  StateViews state() { return make_state_views(m_layout, m_precision, m_state.data(), m_n); }
  template <class Real>
  void store(const std::vector<ParticleRecord<Real>>& particles);  // into a fresh buffer for the format
  template <class Real>
  std::vector<ParticleRecord<Real>> load();
  // `scratch`: of `bytes`, the scratch written and read back (KernelTiming::scratch_bytes).
  void record(KernelKind kind, std::chrono::steady_clock::time_point start, double bytes, double interactions,
              double scratch = 0.0, std::string_view scratch_what = {});
  template <class View>
  void simd_drift(const View& view, typename View::Scalar dt, int begin, int end);
  // The pool's parallel_for over bodies [begin, end): fn(first, last) per thread.
  template <class Fn>
  void parallel_range(int begin, int end, Fn&& fn);

  CpuTarget m_target;
  const SimdKernels* m_simd;  // null: the scalar reference loops
  ThreadPool m_pool;
  mutable std::optional<DeviceInfo> m_info;
  std::vector<Double4> m_state;  // state_bytes(m_layout, m_precision, m_n) bytes, 32-byte aligned elements
  std::vector<KernelTiming> m_timings;
  SourceRows m_sources;  // the SIMD solvers' gathered rows
  SolverSet m_solvers;   // after the pool and the SIMD kernels they are made with
};

}  // namespace coalesce
