// CudaBackend: state management, the timed step, pack and conversion, and the pack-variant tuner.
#include "kernels/cuda_backend.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <string>
#include <utility>

#include "kernels/device_probe.h"
#include "kernels/diagnostics.h"
#include "kernels/event_timing.h"
#include "kernels/kernels.h"
#include "sim/body_range.h"
#include "sim/nvtx_range.h"
#include "sim/byte_counts.h"
#include "sim/limits.h"

namespace coalesce {

namespace {

// All-pairs diagnostics are N^2 / 2 double-precision pairs: about 1.3 s per call on an H100 at this N.
constexpr int kMaxAllPairsDiagnosticParticles = 1 << 20;

int checked_count(int particles) {
  if (particles <= 0)
    throw std::invalid_argument("CudaBackend: particle count must be > 0, got " + std::to_string(particles));
  return particles;
}

// Runs before any allocation, so a too-large N fails with the one-line estimate, not an out-of-memory.
int checked_device(int device, int particles, Precision precision) {
  COALESCE_CUDA_CHECK(cudaSetDevice(device));
  check_device_memory(particles, device, precision);
  return device;
}

}  // namespace

CudaBackend::CudaBackend(int particles, Layout layout, int device, Precision precision)
    : Backend(checked_count(particles), layout, precision, Processor::Gpu,
              // A tree run's energy is the tree's own potential walk at any N (diagnostics()).
              {kMaxAllPairsDiagnosticParticles, std::numeric_limits<int>::max(), kMaxParticles}),
      m_device(checked_device(device, particles, precision)),
      m_info(query_device_info(device)),
      m_state(max_state_bytes(precision, m_n)),
      m_scratch(max_state_bytes(precision, m_n)),
      m_solvers([this](ForceMethod method) {
        return make_gpu_solver(method, GpuSolverContext{m_stream.get(), m_force_partials, m_tree_settings});
      }) {
  // A defined starting state: all zeros is a valid state in every layout (float4's spare w included).
  COALESCE_CUDA_CHECK(cudaMemsetAsync(m_state.data(), 0, m_state.bytes(), m_stream.get()));
  m_stream.synchronize();
}

std::string CudaBackend::name() const {
  return "cuda (" + m_info.name + ")";
}

template <class Fn>
void CudaBackend::timed(KernelKind kind, Layout layout, Fn&& launch_fn) {
  // The kernel family and layout as an NVTX range: "forces soa", "pack aos", ... (docs/profiling.md).
  const NvtxRange range(std::string(to_string(kind)) + " " + std::string(to_string(layout)));
  m_timings.begin(m_stream.get());
  KernelTiming timing = launch_fn();
  timing.kernel = kind;
  timing.layout = layout;
  timing.precision = m_precision;
  m_timings.end(m_stream.get(), timing);
}

template <class Fn>
void CudaBackend::timed(KernelKind kind, Layout layout, double bytes, double interactions_count,
                        Fn&& launch_fn) {
  timed(kind, layout, [&] {
    launch_fn();
    return KernelTiming{kind, layout, 0.0, bytes, interactions_count};
  });
}

// Records of the stored precision land as AoS; other layouts are produced by the (bitwise) conversion
// kernel. Records of the other precision are cast on the host first.
template <class Real>
void CudaBackend::upload_records(const std::vector<ParticleRecord<Real>>& particles) {
  if (static_cast<int>(particles.size()) != m_n)
    throw std::invalid_argument("CudaBackend::upload: expected " + std::to_string(m_n) + " particles, got " +
                                std::to_string(particles.size()));
  with_precision(m_precision, [&](auto p) {
    using Stored = RealFor<decltype(p)::value>;
    std::vector<ParticleRecord<Stored>> cast;
    const ParticleRecord<Stored>* records = nullptr;
    if constexpr (std::is_same_v<Stored, Real>) {
      records = particles.data();
    } else {
      cast.reserve(particles.size());
      for (const auto& particle : particles) cast.push_back(record_cast<Stored>(particle));
      records = cast.data();
    }
    unsigned char* target = m_layout == Layout::AoS ? m_state.data() : m_scratch.data();
    COALESCE_CUDA_CHECK(cudaMemcpyAsync(target, records, particles.size() * sizeof(ParticleRecord<Stored>),
                                        cudaMemcpyHostToDevice, m_stream.get()));
    if (m_layout != Layout::AoS) gpu::convert(scratch_views(Layout::AoS), state_views(), m_stream.get());
    m_stream.synchronize();  // `cast` is read by the copy
  });
}

template <class Real>
std::vector<ParticleRecord<Real>> CudaBackend::download_as() {
  std::vector<ParticleRecord<Real>> out(static_cast<std::size_t>(m_n));
  const unsigned char* source = m_state.data();
  if (m_layout != Layout::AoS) {
    gpu::convert(state_views(), scratch_views(Layout::AoS), m_stream.get());
    source = m_scratch.data();
  }
  with_precision(m_precision, [&](auto p) {
    using Stored = RealFor<decltype(p)::value>;
    if constexpr (std::is_same_v<Stored, Real>) {
      COALESCE_CUDA_CHECK(cudaMemcpyAsync(out.data(), source, out.size() * sizeof(ParticleRecord<Real>),
                                          cudaMemcpyDeviceToHost, m_stream.get()));
      m_stream.synchronize();
    } else {
      std::vector<ParticleRecord<Stored>> stored(out.size());
      COALESCE_CUDA_CHECK(cudaMemcpyAsync(stored.data(), source, stored.size() * sizeof(ParticleRecord<Stored>),
                                          cudaMemcpyDeviceToHost, m_stream.get()));
      m_stream.synchronize();
      for (std::size_t i = 0; i < out.size(); ++i) out[i] = record_cast<Real>(stored[i]);
    }
  });
  return out;
}

void CudaBackend::upload(RecordsView records) {
  std::visit([&](const auto* particles) { upload_records(*particles); }, records);
}

StateRecords CudaBackend::download_records() {
  if (m_precision == Precision::Fp64) return download_as<double>();
  return download_as<float>();
}

std::size_t CudaBackend::set_precision(Precision precision) {
  if (precision == m_precision) return 0;
  const std::vector<ParticleF64> canonical = download_as<double>();  // exact from either precision
  const std::size_t bytes = max_state_bytes(precision, m_n);
  // The old buffers go first, so a larger precision needs only its own bytes free; if the new ones do not
  // fit, the state goes back as it was.
  const Precision before = m_precision;
  m_state = DeviceBuffer<unsigned char>();
  m_scratch = DeviceBuffer<unsigned char>();
  try {
    check_device_memory(m_n, m_device, precision);
    m_state = DeviceBuffer<unsigned char>(bytes);
    m_scratch = DeviceBuffer<unsigned char>(bytes);
    m_precision = precision;
  } catch (...) {
    m_state = DeviceBuffer<unsigned char>(max_state_bytes(before, m_n));
    m_scratch = DeviceBuffer<unsigned char>(max_state_bytes(before, m_n));
    upload_records(canonical);
    throw;
  }
  upload_records(canonical);
  return precision == Precision::Fp32 ? count_rounded_to_float(canonical) : 0;
}

void CudaBackend::set_layout(Layout layout) {
  if (layout == m_layout) return;
  const StateViews from = state_views();
  const StateViews to = scratch_views(layout);
  // Reported under the destination layout, as the CPU backend does.
  timed(KernelKind::Convert, layout, convert_bytes(m_layout, layout, m_n, m_precision), 0.0,
        [&] { gpu::convert(from, to, m_stream.get()); });
  std::swap(m_state, m_scratch);
  m_layout = layout;
}

std::optional<AccelerationSample> CudaBackend::sample_accelerations(const SimParams& params,
                                                                    const std::vector<int>& targets) {
  return m_solvers[m_method].sample_accelerations(Sources{state_views()}, targets, params);
}

std::optional<TreeReport> CudaBackend::tree_report() {
  return m_solvers[m_method].tree_report();
}

void CudaBackend::kick(const SimParams& params, double time, int begin, int end) {
  check_body_range(begin, end, m_n);
  check_slice(m_method, begin, end, m_n, "CudaBackend");
  const BodyRange targets{begin, end};
  const Sources sources{state_views()};
  ForceSolver& solver = m_solvers[m_method];
  // Rows gathered on the device (gpu::export_sources' gather) come with the first GPU solver that needs them.
  if (solver.source_need() != SourceNeed::InPlace)
    throw std::logic_error("CudaBackend: the " + std::string(method_info(m_method).name) +
                           " solver needs gathered sources, which the GPU backend does not make yet");
  solver.prepare(sources, targets, params, time);  // schedule and allocation, outside the event pair
  const double pulls =
      interactions(KernelKind::Forces, m_method, targets.count(), m_n, params.attractors.count);
  timed(KernelKind::Forces, m_layout, [&] {
    const ForceCost cost = solver.kick(sources, targets, params);
    // Both all-pairs schemes write partial sums and read them back: they count beside the state's bytes.
    const ByteFormula f =
        forces_byte_formula(m_layout, m_method, m_precision, cost.scratch_bytes, cost.scratch_what);
    return KernelTiming{KernelKind::Forces,
                        m_layout,
                        0.0,
                        f.bytes(targets.count()),
                        cost.counted.value_or(pulls),
                        m_precision,
                        f.scratch_moved(),
                        f.scratch_what};
  });
}

void CudaBackend::drift(double dt, int begin, int end) {
  check_body_range(begin, end, m_n);
  timed(KernelKind::Integrate, m_layout,
        bytes_moved(KernelKind::Integrate, m_layout, m_method, end - begin, m_precision), 0.0, [&] {
          gpu::drift(state_views(), {begin, end}, dt, m_stream.get());
        });
}

void CudaBackend::step_range(const SimParams& params, double time, int begin, int end) {
  kick(params, time, begin, end);
  drift(params.dt, begin, end);
}

namespace {

class PinnedExchangeBuffer final : public ExchangeBuffer {
 public:
  explicit PinnedExchangeBuffer(std::size_t bytes) : m_bytes(bytes) {
    COALESCE_CUDA_CHECK(cudaMallocHost(&m_data, bytes));
  }
  ~PinnedExchangeBuffer() override { cudaFreeHost(m_data); }  // a destructor cannot throw; nothing to report
  PinnedExchangeBuffer(const PinnedExchangeBuffer&) = delete;
  PinnedExchangeBuffer& operator=(const PinnedExchangeBuffer&) = delete;
  void* data() override { return m_data; }
  std::size_t bytes() const override { return m_bytes; }

 private:
  void* m_data = nullptr;
  std::size_t m_bytes;
};

}  // namespace

std::unique_ptr<ExchangeBuffer> CudaBackend::make_exchange_buffer() const {
  COALESCE_CUDA_CHECK(cudaSetDevice(m_device));
  return std::make_unique<PinnedExchangeBuffer>(exchange_bytes(m_precision, m_n));
}

std::size_t CudaBackend::prepare_exchange(int begin, int end, const ExchangeBuffer& buffer) {
  check_body_range(begin, end, m_n);
  check_exchange_buffer(buffer, m_precision, m_n);
  if (m_exchange.size() < buffer.bytes()) m_exchange = DeviceBuffer<unsigned char>(buffer.bytes());
  return exchange_bytes(m_precision, 1);
}

void CudaBackend::export_sources(int begin, int end, ExchangeBuffer& buffer) {
  const std::size_t each = prepare_exchange(begin, end, buffer);
  if (begin == end) return;
  gpu::export_sources(state_views(), {begin, end}, m_exchange.data(), m_stream.get());
  COALESCE_CUDA_CHECK(cudaMemcpyAsync(static_cast<unsigned char*>(buffer.data()) + each * begin,
                                      m_exchange.data() + each * begin, each * (end - begin),
                                      cudaMemcpyDeviceToHost, m_stream.get()));
  m_stream.synchronize();
}

void CudaBackend::import_sources(int begin, int end, const ExchangeBuffer& buffer) {
  const std::size_t each = prepare_exchange(begin, end, buffer);
  if (begin == end) return;
  COALESCE_CUDA_CHECK(cudaMemcpyAsync(m_exchange.data() + each * begin,
                                      static_cast<const unsigned char*>(buffer.data()) + each * begin,
                                      each * (end - begin), cudaMemcpyHostToDevice, m_stream.get()));
  gpu::import_sources(state_views(), {begin, end}, m_exchange.data(), m_stream.get());
  m_stream.synchronize();
}

void CudaBackend::pack(PackVariant variant, float* out, MemorySpace space) {
  if (out == nullptr) throw std::invalid_argument("CudaBackend::pack: output pointer is null");
  const double bytes = bytes_moved(KernelKind::Pack, m_layout, m_method, m_n, m_precision);
  if (space == MemorySpace::Device) {
    if (reinterpret_cast<std::uintptr_t>(out) % alignof(Float4) != 0)
      throw std::invalid_argument("CudaBackend::pack: the device output must be 16-byte aligned");
    timed(KernelKind::Pack, m_layout, bytes, 0.0,
          [&] { gpu::pack(state_views(), variant, reinterpret_cast<Float4*>(out), m_stream.get()); });
    return;
  }
  // Interop fallback: pack on the device, then one device-to-host copy (scratch holds at least 32 B per particle).
  Float4* staging = reinterpret_cast<Float4*>(m_scratch.data());
  timed(KernelKind::Pack, m_layout, bytes, 0.0,
        [&] { gpu::pack(state_views(), variant, staging, m_stream.get()); });
  COALESCE_CUDA_CHECK(cudaMemcpyAsync(out, staging, static_cast<std::size_t>(m_n) * sizeof(Float4),
                                      cudaMemcpyDeviceToHost, m_stream.get()));
  m_stream.synchronize();
}

std::vector<KernelTiming> CudaBackend::poll_timings() {
  return m_timings.poll();
}

void CudaBackend::synchronize() {
  m_stream.synchronize();
}

Diagnostics CudaBackend::diagnostics(const SimParams& params, double time) {
  const double eps2 = params.softening * params.softening;  // as compute_diagnostics
  // A tree run's energy is the tree's own at every N, so its drift is that of the forces it steps with.
  if (m_method == ForceMethod::Tree) {
    const std::optional<MethodPotential> own =
        m_solvers[m_method].potential_energy(Sources{state_views()}, params);
    if (!own) throw std::logic_error("CudaBackend: the tree solver gave no potential");
    return with_method_potential(gpu::motion_diagnostics(state_views(), m_stream.get()), *own);
  }
  if (method_info(m_method).physics == Physics::PairGravity)
    return gpu::all_pairs_diagnostics(state_views(), eps2, m_stream.get());
  // The attractor positions the step's kick uses: the same host snapshot, in the state's precision, widened.
  AttractorSnapshotT<double> snapshot{};
  with_precision(m_precision, [&](auto p) {
    snapshot = widened(snapshot_attractors(params.attractors, static_cast<RealFor<decltype(p)::value>>(time)));
  });
  return gpu::attractor_diagnostics(state_views(), snapshot, eps2, m_stream.get());
}

std::optional<double> CudaBackend::pack_median_ms(PackVariant variant) {
  Float4* out = reinterpret_cast<Float4*>(m_scratch.data());
  return median_time_ms([&] { gpu::pack(state_views(), variant, out, m_stream.get()); },
                        TimingPlan{5, 0.0, 11}, m_stream.get());
}

namespace {

// cudaMalloc: 256-byte aligned, as the pack kernels need.
class DevicePackTarget final : public PackTarget {
 public:
  explicit DevicePackTarget(int n) : m_data(static_cast<std::size_t>(n)) {}
  float* data() override { return reinterpret_cast<float*>(m_data.data()); }
  MemorySpace space() const override { return MemorySpace::Device; }

 private:
  DeviceBuffer<Float4> m_data;
};

}  // namespace

std::unique_ptr<PackTarget> CudaBackend::make_pack_target() const {
  COALESCE_CUDA_CHECK(cudaSetDevice(m_device));
  return std::make_unique<DevicePackTarget>(m_n);
}

}  // namespace coalesce
