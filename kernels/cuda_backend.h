// The CUDA backend: the particle state on one device in any layout, every kernel timed through a ring of
// events (read back without stalling), and the device facts the panel and the bench show.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <cuda_runtime.h>

#include "kernels/cuda_event.h"
#include "kernels/device_buffer.h"
#include "kernels/gpu_solvers.h"
#include "kernels/kernels.h"
#include "kernels/launch_hold.h"
#include "sim/layout_storage.h"
#include "kernels/timing_ring.h"
#include "sim/backend.h"

namespace coalesce {

class CudaBackend final : public Backend, public RankExchange, public BenchTiming, public InteropStream {
 public:
  // Throws DeviceMemoryError (kernels/device_probe.h) when N does not fit, std::invalid_argument for N <= 0.
  CudaBackend(int particles, Layout layout, int device = 0, Precision precision = Precision::Fp32);

  std::string name() const override;
  const DeviceInfo& device_info() const override { return m_info; }

  using Backend::upload;
  void upload(RecordsView records) override;
  StateRecords download_records() override;
  void set_layout(Layout layout) override;
  // Through the host (exact records); the buffers are reallocated for the new precision, the memory checked
  // first (DeviceMemoryError, the state kept).
  std::size_t set_precision(Precision precision) override;
  void step_range(const SimParams& params, double time, int begin, int end) override;
  // Pinned host memory (cudaMallocHost), so the copies run at the link's rate.
  std::unique_ptr<ExchangeBuffer> make_exchange_buffer() const override;
  void export_sources(int begin, int end, ExchangeBuffer& buffer) override;
  void import_sources(int begin, int end, const ExchangeBuffer& buffer) override;
  // MemorySpace::Device: `out` is a 16-byte-aligned device pointer (e.g. a mapped GL buffer), written
  // asynchronously on stream(). MemorySpace::Host: packed into device scratch, then copied (synchronous).
  void pack(PackVariant variant, float* out, MemorySpace space) override;
  // A device buffer, as the viewer's mapped GL buffer would be.
  std::unique_ptr<PackTarget> make_pack_target() const override;
  // Into scratch on the stream, apart from the timing ring (these launches are not frame work); blocking.
  std::optional<double> pack_median_ms(PackVariant variant) override;
  CUstream_st* native_stream() const override { return m_stream.get(); }
  RankExchange& rank_exchange() override { return *this; }
  BenchTiming& bench_timing() override { return *this; }
  InteropStream* interop_stream() override { return this; }
  std::vector<KernelTiming> poll_timings() override;
  void hold_launches() override { m_hold.hold(m_stream.get()); }
  void release_launches() override { m_hold.release(); }
  void synchronize() override;
  // On the device in double precision (kernels/diagnostics.cu): no download, and no O(N^2) host pass.
  Diagnostics diagnostics(const SimParams& params, double time) override;
  std::optional<AccelerationSample> sample_accelerations(const SimParams& params,
                                                         const std::vector<int>& targets) override;
  std::optional<TreeReport> tree_report() override;

  // The two halves of step(), each timed separately (tests and bench), for bodies [begin, end) (default all).
  void kick(const SimParams& params, double time) { kick(params, time, 0, m_n); }
  void kick(const SimParams& params, double time, int begin, int end);
  void drift(double dt) { drift(dt, 0, m_n); }
  void drift(double dt, int begin, int end);  // dt rounded to the state's precision

  cudaStream_t stream() const { return m_stream.get(); }
  int device() const { return m_device; }
  std::size_t dropped_timings() const { return m_timings.dropped(); }

 private:
  StateViews state_views() const { return make_state_views(m_layout, m_precision, m_state.data(), m_n); }
  StateViews scratch_views(Layout layout) const {
    return make_state_views(layout, m_precision, m_scratch.data(), m_n);
  }
  // The checks of export_sources and import_sources, and m_exchange grown to the buffer's size; returns the
  // bytes of one body's {x, y, z, m}.
  std::size_t prepare_exchange(int begin, int end, const ExchangeBuffer& buffer);
  template <class Real>
  void upload_records(const std::vector<ParticleRecord<Real>>& particles);
  template <class Real>
  std::vector<ParticleRecord<Real>> download_as();
  // Records an event pair around `launch_fn` into the ring; launch_fn queues the launches and returns
  // their KernelTiming (what they moved), its milliseconds left to the ring.
  template <class Fn>
  void timed(KernelKind kind, Layout layout, Fn&& launch_fn);
  // The same for launches whose bytes are known before they are queued.
  template <class Fn>
  void timed(KernelKind kind, Layout layout, double bytes, double interactions, Fn&& launch_fn);

  int m_device;
  DeviceInfo m_info;
  CudaStream m_stream;
  DeviceBuffer<unsigned char> m_state;    // max_state_bytes(precision, N): any layout fits, in m_layout
  DeviceBuffer<unsigned char> m_scratch;  // same size: conversion target and staging
  DeviceBuffer<unsigned char> m_force_partials;  // all-pairs partial sums, lent to the solvers
  DeviceBuffer<unsigned char> m_exchange;        // N x {x, y, z, m}: sources on their way to or from a rank
  SolverSet m_solvers;                           // after the stream and the partials they use
  TimingRing m_timings;
  LaunchHold m_hold;  // bench: launches queued behind it start back to back
};

}  // namespace coalesce
