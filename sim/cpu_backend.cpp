// CpuBackend: per-layout storage, the step as two timed parallel passes, pack and bitwise layout conversion.
#include "sim/cpu_backend.h"

#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>

#include "sim/byte_counts.h"
#include "sim/cpu_info.h"
#include "sim/cpu_kernels.h"

namespace coalesce {

namespace {
// Energy needs all pairs in double precision: cheap below this N, slow above it.
constexpr int kMaxCpuDiagnosticParticles = 20000;

int resolve_threads(int threads) {
  if (threads < 0)
    throw std::invalid_argument("CpuBackend: thread count must be >= 0 (0 = all hardware threads)");
  if (threads > 0) return threads;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? static_cast<int>(hw) : 1;
}

int checked_count(int particles) {
  if (particles <= 0)
    throw std::invalid_argument("CpuBackend: particle count must be > 0, got " + std::to_string(particles));
  return particles;
}

class HostPackTarget final : public PackTarget {
 public:
  explicit HostPackTarget(int n) : m_data(static_cast<std::size_t>(n) * kRenderFloatsPerParticle) {}
  float* data() override { return m_data.data(); }
  MemorySpace space() const override { return MemorySpace::Host; }

 private:
  std::vector<float> m_data;
};
}  // namespace

CpuBackend::CpuBackend(int particles, Layout layout, int threads, Precision precision)
    : m_n(checked_count(particles)),
      m_layout(layout),
      m_precision(precision),
      m_pool(resolve_threads(threads)),
      m_info(cpu_device_info()) {
  store(std::vector<Particle>(static_cast<std::size_t>(m_n), Particle{0, 0, 0, 0, 0, 0, 0}));
}

std::string CpuBackend::name() const {
  return "cpu (" + std::to_string(m_pool.thread_count()) + " threads)";
}

template <class Real>
void CpuBackend::store(const std::vector<ParticleRecord<Real>>& particles) {
  if (static_cast<int>(particles.size()) != m_n)
    throw std::invalid_argument("CpuBackend::upload: expected " + std::to_string(m_n) + " particles, got " +
                                std::to_string(particles.size()));
  const std::size_t words = (state_bytes(m_layout, m_precision, m_n) + sizeof(Double4) - 1) / sizeof(Double4);
  std::vector<Double4>().swap(m_state);  // the old format's buffer goes before the new one is made
  m_state.resize(words);
  with_view(state(), [&](const auto& view) {
    using Stored = typename std::decay_t<decltype(view)>::Scalar;
    for (int i = 0; i < m_n; ++i) view.store(i, record_cast<Stored>(particles[static_cast<std::size_t>(i)]));
  });
}

template <class Real>
std::vector<ParticleRecord<Real>> CpuBackend::load() {
  std::vector<ParticleRecord<Real>> out(static_cast<std::size_t>(m_n));
  with_view(state(), [&](const auto& view) {
    for (int i = 0; i < m_n; ++i) out[static_cast<std::size_t>(i)] = record_cast<Real>(load_particle(view, i));
  });
  return out;
}

void CpuBackend::upload(const std::vector<Particle>& particles) { store(particles); }
void CpuBackend::upload(const std::vector<ParticleF64>& particles) { store(particles); }
std::vector<Particle> CpuBackend::download() { return load<float>(); }
std::vector<ParticleF64> CpuBackend::download_f64() { return load<double>(); }

void CpuBackend::set_layout(Layout layout) {
  if (layout == m_layout) return;
  const auto start = std::chrono::steady_clock::now();
  const Layout from = m_layout;
  // Through records of the stored precision: bitwise, whatever the precision.
  with_records(*this, [&](const auto& canonical) {
    m_layout = layout;
    store(canonical);
  });
  record(KernelKind::Convert, start, convert_bytes(from, layout, m_n, m_precision), 0.0);
}

std::size_t CpuBackend::set_precision(Precision precision) {
  if (precision == m_precision) return 0;
  const std::vector<ParticleF64> canonical = load<double>();  // exact from either precision
  const std::size_t rounded = precision == Precision::Fp32 ? count_rounded_to_float(canonical) : 0;
  m_precision = precision;
  store(canonical);
  return rounded;
}

void CpuBackend::step(const SimParams& params, double time) {
  auto start = std::chrono::steady_clock::now();
  with_view(state(), [&](const auto& view) {
    using Real = typename std::decay_t<decltype(view)>::Scalar;
    const Real eps2 = softening_squared<Real>(params);
    const Real dt = params.dt;
    if (params.solver == Solver::AllPairs) {
      m_pool.parallel_for(m_n,
                          [&](int begin, int end) { cpu::all_pairs_kick(view, view, begin, end, eps2, dt); });
    } else {
      const auto snapshot = snapshot_attractors(params.attractors, static_cast<Real>(time));
      m_pool.parallel_for(
          m_n, [&](int begin, int end) { cpu::attractor_kick(view, begin, end, snapshot, eps2, dt); });
    }
  });
  record(KernelKind::Forces, start, bytes_moved(KernelKind::Forces, m_layout, params.solver, m_n, m_precision),
         interactions(KernelKind::Forces, params.solver, m_n, params.attractors.count));

  start = std::chrono::steady_clock::now();
  with_view(state(), [&](const auto& view) {
    using Real = typename std::decay_t<decltype(view)>::Scalar;
    const Real dt = params.dt;
    m_pool.parallel_for(m_n, [&](int begin, int end) { cpu::drift_range(view, begin, end, dt); });
  });
  record(KernelKind::Integrate, start,
         bytes_moved(KernelKind::Integrate, m_layout, params.solver, m_n, m_precision), 0.0);
}

std::unique_ptr<PackTarget> CpuBackend::make_pack_target() const {
  return std::make_unique<HostPackTarget>(m_n);
}

void CpuBackend::pack(PackVariant /*variant: all variants are the same loop on the CPU*/, float* out,
                      MemorySpace space) {
  if (space == MemorySpace::Device)
    throw std::invalid_argument("CpuBackend::pack: cannot write device memory; pass a host pointer");
  if (out == nullptr) throw std::invalid_argument("CpuBackend::pack: output pointer is null");
  const auto start = std::chrono::steady_clock::now();
  with_view(state(), [&](const auto& view) {
    m_pool.parallel_for(m_n, [&](int begin, int end) { cpu::pack_range(view, begin, end, out); });
  });
  record(KernelKind::Pack, start, bytes_moved(KernelKind::Pack, m_layout, Solver::AllPairs, m_n, m_precision),
         0.0);
}

Diagnostics CpuBackend::diagnostics(const SimParams& params, double time) {
  Diagnostics d;
  with_records(*this, [&](const auto& records) { d = compute_diagnostics(records, params, time); });
  return d;
}

int CpuBackend::max_diagnostics_particles(Solver /*solver: one limit for both, as before*/) const {
  return kMaxCpuDiagnosticParticles;
}

std::vector<KernelTiming> CpuBackend::poll_timings() {
  std::vector<KernelTiming> out;
  out.swap(m_timings);
  return out;
}

void CpuBackend::record(KernelKind kind, std::chrono::steady_clock::time_point start, double bytes,
                        double interactions_count) {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // Bounded: a caller that never polls must not grow memory without limit.
  if (m_timings.size() >= 4096) m_timings.erase(m_timings.begin(), m_timings.begin() + 2048);
  m_timings.push_back({kind, m_layout, ms, bytes, interactions_count, m_precision});
}

}  // namespace coalesce
