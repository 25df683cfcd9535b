// CpuBackend: per-layout storage, the step as two timed parallel passes, pack and bitwise layout conversion.
#include "sim/cpu_backend.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sim/body_range.h"
#include "sim/byte_counts.h"
#include "sim/cpu_info.h"
#include "sim/cpu_kernels.h"
#include "sim/cpu_solvers.h"
#include "sim/limits.h"
#include "sim/printable.h"
#include "sim/usable_cpus.h"

namespace coalesce {

namespace {
// Energy needs all pairs in double precision: cheap below this N, slow above it. The same limit for the
// attractors, as before backends computed diagnostics.
constexpr int kMaxCpuDiagnosticParticles = 20000;

int resolve_threads(int threads) {
  if (threads < 0)
    throw std::invalid_argument("CpuBackend: thread count must be >= 0 (0 = every usable CPU)");
  if (threads > 0) return threads;
  return usable_cpus().count;
}

CpuTarget checked_target(CpuTarget target) {
  if (!cpu_target_supported(target))
    throw std::invalid_argument("CpuBackend: " + unsupported_cpu_target_text(target));
  return target;
}

// The state buffer's length in its 32-byte elements for n particles of a format.
std::size_t state_words(Layout layout, Precision precision, int n) {
  return (state_bytes(layout, precision, n) + sizeof(Double4) - 1) / sizeof(Double4);
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

CpuBackend::CpuBackend(int particles, Layout layout, int threads, Precision precision, CpuTarget target)
    : Backend(checked_count(particles), layout, precision, Processor::Cpu,
              {kMaxCpuDiagnosticParticles, kMaxCpuDiagnosticParticles, kMaxParticles}),
      m_target(checked_target(target)),
      m_simd(simd_kernels(m_target)),
      m_pool(resolve_threads(threads)),
      m_solvers([this](ForceMethod method) {
        return make_cpu_solver(method, CpuSolverContext{m_pool, m_simd, m_tree_settings});
      }) {
  store(std::vector<Particle>(static_cast<std::size_t>(m_n), Particle{0, 0, 0, 0, 0, 0, 0}));
}

std::string CpuBackend::name() const {
  const int threads = m_pool.thread_count();
  return "cpu (" + counted(threads, "thread") + ", " +
         std::string(cpu_target_info(m_target).label) + ")";
}

template <class Real>
void CpuBackend::store(const std::vector<ParticleRecord<Real>>& particles) {
  if (static_cast<int>(particles.size()) != m_n)
    throw std::invalid_argument("CpuBackend::upload: expected " + std::to_string(m_n) + " particles, got " +
                                std::to_string(particles.size()));
  std::vector<Double4>().swap(m_state);  // the old format's buffer goes before the new one is made
  m_state.resize(state_words(m_layout, m_precision, m_n));
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

void CpuBackend::upload(RecordsView records) {
  std::visit([&](const auto* particles) { store(*particles); }, records);
}

StateRecords CpuBackend::download_records() {
  if (m_precision == Precision::Fp64) return load<double>();
  return load<float>();
}

void CpuBackend::set_layout(Layout layout) {
  if (layout == m_layout) return;
  const auto start = std::chrono::steady_clock::now();
  const Layout from = m_layout;
  // Straight from the old buffer to the new one, every thread a range of particles: bitwise (records are
  // moved, not computed), and no canonical copy in between.
  std::vector<Double4> next(state_words(layout, m_precision, m_n));
  with_view(state(), [&](const auto& old_view) {
    with_view(make_state_views(layout, m_precision, next.data(), m_n), [&](const auto& new_view) {
      using Old = typename std::decay_t<decltype(old_view)>::Scalar;
      using New = typename std::decay_t<decltype(new_view)>::Scalar;
      if constexpr (std::is_same_v<Old, New>) {  // one precision: the other pairings never run
        m_pool.parallel_for(m_n, [&](int begin, int end) {
          for (int i = begin; i < end; ++i) new_view.store(i, load_particle(old_view, i));
        });
      }
    });
  });
  m_state.swap(next);
  m_layout = layout;
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

template <class View>
void CpuBackend::simd_drift(const View& view, typename View::Scalar dt, int first, int last) {
  using Real = typename View::Scalar;
  const SimdKernelsT<Real>& kernels = simd_kernels_for<Real>(*m_simd);
  parallel_range(first, last, [&](int begin, int end) {
    if constexpr (View::kLayout == Layout::SoA)
      kernels.drift_soa(view.x, view.y, view.z, view.vx, view.vy, view.vz, begin, end, dt);
    else if constexpr (View::kLayout == Layout::Float4)
      kernels.drift_vec4(&view.pos_mass->x, &view.vel->x, begin, end, dt);
    else  // AoS: 7-scalar records; the reference loop (memory-bound either way, docs/perf.md)
      cpu::drift_range(view, begin, end, dt);
  });
}

template <class Fn>
void CpuBackend::parallel_range(int begin, int end, Fn&& fn) {
  m_pool.parallel_for(end - begin, [&](int b, int e) { fn(begin + b, begin + e); });
}

std::optional<AccelerationSample> CpuBackend::sample_accelerations(const SimParams& params,
                                                                   const std::vector<int>& targets) {
  return m_solvers[m_method].sample_accelerations(Sources{state()}, targets, params);
}

std::optional<TreeReport> CpuBackend::tree_report() {
  return m_solvers[m_method].tree_report();
}

void CpuBackend::step_range(const SimParams& params, double time, int first, int last) {
  check_body_range(first, last, m_n);
  check_slice(m_method, first, last, m_n, "CpuBackend");
  const BodyRange targets{first, last};
  const int count = last - first;
  // The gather and the solver's preparation count as the forces' time, as the staging always did.
  auto start = std::chrono::steady_clock::now();
  ForceSolver& solver = m_solvers[m_method];
  Sources sources{state()};
  if (solver.source_need() == SourceNeed::Rows)
    with_view(state(), [&](const auto& view) { sources = m_sources.gather(m_pool, view, state(), m_n); });
  solver.prepare(sources, targets, params, time);
  const ForceCost cost = solver.kick(sources, targets, params);
  const ByteFormula formula =
      forces_byte_formula(m_layout, m_method, m_precision, cost.scratch_bytes, cost.scratch_what);
  record(
      KernelKind::Forces, start, formula.bytes(count),
      cost.counted.value_or(interactions(KernelKind::Forces, m_method, count, m_n, params.attractors.count)),
      formula.scratch_moved(), formula.scratch_what);

  start = std::chrono::steady_clock::now();
  with_view(state(), [&](const auto& view) {
    using Real = typename std::decay_t<decltype(view)>::Scalar;
    const Real dt = time_step<Real>(params);
    if (m_simd)
      simd_drift(view, dt, first, last);
    else
      parallel_range(first, last, [&](int begin, int end) { cpu::drift_range(view, begin, end, dt); });
  });
  record(KernelKind::Integrate, start,
         bytes_moved(KernelKind::Integrate, m_layout, m_method, count, m_precision), 0.0);
}

namespace {
class HostExchangeBuffer final : public ExchangeBuffer {
 public:
  explicit HostExchangeBuffer(std::size_t bytes) : m_data((bytes + sizeof(Double4) - 1) / sizeof(Double4)) {}
  void* data() override { return m_data.data(); }
  std::size_t bytes() const override { return m_data.size() * sizeof(Double4); }

 private:
  std::vector<Double4> m_data;  // 32-byte aligned elements, as the state
};
}  // namespace

std::unique_ptr<ExchangeBuffer> CpuBackend::make_exchange_buffer() const {
  return std::make_unique<HostExchangeBuffer>(exchange_bytes(m_precision, m_n));
}

void CpuBackend::export_sources(int first, int last, ExchangeBuffer& buffer) {
  check_body_range(first, last, m_n);
  check_exchange_buffer(buffer, m_precision, m_n);
  with_view(state(), [&](const auto& view) {
    using Real = typename std::decay_t<decltype(view)>::Scalar;
    Vec4T<Real>* out = static_cast<Vec4T<Real>*>(buffer.data());
    gather_sources(m_pool, view, first, last, [&](int i, const Vec4T<Real>& pm) { out[i] = pm; });
  });
}

void CpuBackend::import_sources(int first, int last, const ExchangeBuffer& buffer) {
  check_body_range(first, last, m_n);
  check_exchange_buffer(buffer, m_precision, m_n);
  with_view(state(), [&](const auto& view) {
    using Real = typename std::decay_t<decltype(view)>::Scalar;
    const Vec4T<Real>* in = static_cast<const Vec4T<Real>*>(buffer.data());
    parallel_range(first, last, [&](int begin, int end) {
      for (int i = begin; i < end; ++i) view.set_position_mass(i, in[i]);
    });
  });
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
    using View = std::decay_t<decltype(view)>;
    using Real = typename View::Scalar;
    m_pool.parallel_for(m_n, [&](int begin, int end) {
      if constexpr (View::kLayout == Layout::SoA) {
        if (m_simd)
          return simd_kernels_for<Real>(*m_simd).pack_soa(view.x, view.y, view.z, view.vx, view.vy, view.vz,
                                                          begin, end, out);
      } else if constexpr (View::kLayout == Layout::Float4) {
        if (m_simd) return simd_kernels_for<Real>(*m_simd).pack_vec4(&view.pos_mass->x, &view.vel->x, begin, end, out);
      }
      cpu::pack_range(view, begin, end, out);  // AoS, or the scalar target
    });
  });
  record(KernelKind::Pack, start, bytes_moved(KernelKind::Pack, m_layout, m_method, m_n, m_precision), 0.0);
}

Diagnostics CpuBackend::diagnostics(const SimParams& params, double time) {
  // A tree run's energy is the tree's own at every N, so its drift is that of the forces it steps with.
  const std::optional<MethodPotential> own =
      m_method == ForceMethod::Tree ? m_solvers[m_method].potential_energy(Sources{state()}, params)
                                    : std::nullopt;
  Diagnostics d;
  with_records(*this, [&](const auto& records) {
    d = own ? with_method_potential(motion_diagnostics(records), *own)
            : compute_diagnostics(records, method_info(m_method).physics, params, time);
  });
  return d;
}

std::vector<KernelTiming> CpuBackend::poll_timings() {
  std::vector<KernelTiming> out;
  out.swap(m_timings);
  return out;
}

void CpuBackend::record(KernelKind kind, std::chrono::steady_clock::time_point start, double bytes,
                        double interactions_count, double scratch, std::string_view scratch_what) {
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  // Bounded: a caller that never polls must not grow memory without limit.
  if (m_timings.size() >= 4096) m_timings.erase(m_timings.begin(), m_timings.begin() + 2048);
  m_timings.push_back({kind, m_layout, ms, bytes, interactions_count, m_precision, scratch, scratch_what});
}

}  // namespace coalesce
