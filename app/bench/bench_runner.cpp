// The bench sweep: for each solver x N x precision, one backend; for each layout, every kernel warmed up and
// timed.
// Times come from the backend's own per-kernel timings (CUDA events on the GPU), so the sweep code is the
// same for both backends and measures exactly what the panel shows.
#include "app/bench/bench_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <random>
#include <utility>

#include "app/services/backend_factory.h"
#include "app/bench/bench_stats.h"
#include "sim/cpu_info.h"
#include "sim/force_error.h"
#include "sim/force_method.h"
#include "sim/layout_storage.h"
#include "sim/memory_ceiling.h"
#include "sim/nvtx_range.h"
#include "sim/scene.h"

namespace coalesce {

namespace {

using Clock = std::chrono::steady_clock;
// CPU rows repeat more than the GPU's 20: other processes share the cores, and more samples keep the median
// on undisturbed calls (docs/bench-json.md, "Comparing two runs").
constexpr int kCpuRepeats = 31;
constexpr int kCpuMinRepeats = 7;
constexpr double kCpuRepeatBudgetMs = 500;  // per row: a slow row (convert past the cache) stops at the minimum
constexpr int kRingChunk = 64;  // launches per synchronize: well inside the CUDA backend's timing ring

double elapsed_ms(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// The first launches on fresh buffers run slow. Warm up for >= warmup_calls and >= warmup_ms;
// slow kernels (all-pairs at large N) stop after slow_warmup_calls once 20x warmup_ms have passed.
void warm_up(Backend& backend, const BenchPlan& plan, const std::function<void()>& call) {
  const auto start = Clock::now();
  for (int calls = 1;; ++calls) {
    call();
    backend.synchronize();
    const double ms = elapsed_ms(start);
    if (calls >= plan.warmup_calls && ms >= plan.warmup_ms) break;
    if (calls >= plan.slow_warmup_calls && ms >= 20.0 * plan.warmup_ms) break;
  }
  (void)backend.poll_timings();  // warm-up timings are discarded
}

// The timed calls of one row, inside the NVTX range "bench ROW" (warm-ups and the counter pass stay outside,
// so a capture filtered on "bench" holds exactly the timed launches; docs/profiling.md).
// The device waits while a chunk is queued, then runs it back to back: the events of a call of a few
// microseconds then time the call, not the host's launch rate (sim/bench_timing.h, hold_launches).
class HeldLaunches {
 public:
  explicit HeldLaunches(Backend& backend) : m_timing(backend.bench_timing()) { m_timing.hold_launches(); }
  ~HeldLaunches() { m_timing.release_launches(); }
  HeldLaunches(const HeldLaunches&) = delete;
  HeldLaunches& operator=(const HeldLaunches&) = delete;

 private:
  BenchTiming& m_timing;
};

template <class Keep>
std::vector<KernelTiming> timed_repeats(Backend& backend, const std::string& row, const BenchPlan& plan,
                                        const std::function<void()>& call, Keep keep) {
  const NvtxRange range("bench " + row);
  std::vector<KernelTiming> kept;
  const auto start = Clock::now();
  const bool budgeted = plan.repeat_budget_ms > 0;
  for (int done = 0; done < plan.repeats;) {
    if (budgeted && done >= plan.min_repeats && elapsed_ms(start) >= plan.repeat_budget_ms) break;
    // A budget is checked after every call; without one, calls go out in held chunks.
    const int chunk = budgeted ? 1 : std::min(kRingChunk, plan.repeats - done);
    {
      const HeldLaunches held(backend);
      for (int i = 0; i < chunk; ++i) call();
    }
    backend.synchronize();
    for (const KernelTiming& t : backend.poll_timings())
      if (keep(t)) kept.push_back(t);
    done += chunk;
  }
  return kept;
}

// The counter pass of one call (kernel replay: the call runs once), or why there is none.
struct CountedCall {
  std::vector<KernelCounters> kernels;
  std::string why_not;  // "" when counted
};

class RowCounting {
 public:
  // Decided on the first backend: counters need a GPU backend and CUPTI; says why not once on stderr.
  void decide(const BenchPlan& plan, const Backend& backend, BenchResult& result) {
    if (m_decided) return;
    m_decided = true;
    if (!plan.counters) {
      m_why = "hardware counters off (--no-counters)";
    } else if (!backend.device_info().gpu) {
      m_why = "hardware counters unavailable: CPU backend";
    } else {
      m_pass = make_counter_pass(0, m_why);  // the CUDA backend runs on device 0
    }
    if (!m_pass) {
      result.counters_reason = m_why;
      if (plan.counters) std::fprintf(stderr, "coalesce: %s\n", m_why.c_str());
    }
  }

  // One more call of `call` under the counter pass, after the timed repeats; its timings are dropped.
  CountedCall count(Backend& backend, const std::function<void()>& call) {
    if (!m_pass) return {{}, m_why};
    CountedCall out;
    const NvtxRange range("counter pass");
    try {
      out.kernels = m_pass->measure_kernels([&] {
        call();
        backend.synchronize();
      });
    } catch (const std::exception& error) {
      out.why_not = std::string("hardware counters failed: ") + error.what();
      if (!m_failure_told) std::fprintf(stderr, "coalesce: %s\n", out.why_not.c_str());
      m_failure_told = true;
    }
    (void)backend.poll_timings();
    return out;
  }

 private:
  bool m_decided = false;
  bool m_failure_told = false;
  std::string m_why;
  std::unique_ptr<CounterPass> m_pass;
};

// Which of a counted call's kernel launches make a row. CUPTI's automatic ranges are numbered, not named
// after the kernels, so the launch order tells them apart: a step launches the forces kernel(s), then the
// integrate (drift) kernel last; a convert round trip launches its two halves in order, one kernel each.
enum class Launches { All, Last, AllButLast, FirstHalf, SecondHalf };

CounterReading reading_of(const CountedCall& counted, Launches which) {
  if (!counted.why_not.empty()) return {false, counted.why_not, {}, 0};
  const std::size_t n = counted.kernels.size();
  std::size_t begin = 0, end = n;
  switch (which) {
    case Launches::All: break;
    case Launches::Last: begin = n > 0 ? n - 1 : 0; break;
    case Launches::AllButLast: end = n > 0 ? n - 1 : 0; break;
    case Launches::FirstHalf: end = n / 2; break;
    case Launches::SecondHalf: begin = n / 2; break;
  }
  const bool halves = which == Launches::FirstHalf || which == Launches::SecondHalf;
  if (begin >= end || (halves && n % 2 != 0))
    return {false, "hardware counters: " + std::to_string(n) + " kernel launches counted, not the ones expected", {}, 0};
  std::vector<RowCounters> parts;
  for (std::size_t i = begin; i < end; ++i) parts.push_back(counted.kernels[i].counters);
  return {true, "", combine(parts), static_cast<int>(parts.size())};
}

// The ceiling each memory-bound row is divided by: on a GPU the start-up copy; on the CPU the ceiling that
// moves bytes as the row's kernel does, at the start-up size or, for a row that moves fewer bytes, at the
// row's own size (measured once per size in the run), so a row the cache holds meets a ceiling it holds too.
class RowCeilings {
 public:
  RowCeilings(const DeviceInfo& device, const BenchPlan& plan) : m_device(device), m_plan(plan) {}
  const DeviceInfo& device() const { return m_device; }

  void compare(BenchRow& row, KernelKind kind) {
    const Ceiling ceiling = kernel_ceiling(kind, m_device.gpu);
    row.ceiling = std::string(ceiling_info(ceiling).name);
    row.ceiling_gbps = m_device.ceiling_gbps(ceiling);
    if (m_device.cpu) {
      const CpuFacts& cpu = *m_device.cpu;
      const std::size_t buffer = cpu_ceiling_buffer_bytes(ceiling, row.bytes, cpu.copy.buffer_bytes);
      if (buffer < cpu.copy.buffer_bytes) row.ceiling_gbps = own_size(ceiling, buffer);
      const CeilingInfo& info = ceiling_info(ceiling);
      row.ceiling_bytes = static_cast<double>(buffer) * (info.buffers_read + info.buffers_written);
      row.from_cache = fits_in_cache(buffer, cpu.last_level_cache_bytes);
    }
    row.percent_of_ceiling = row.ceiling_gbps > 0 ? 100.0 * row.gbps / row.ceiling_gbps : 0.0;
  }

 private:
  double own_size(Ceiling ceiling, std::size_t buffer) {
    const auto key = std::make_pair(ceiling, buffer);
    const auto known = m_measured.find(key);
    if (known != m_measured.end()) return known->second;
    return m_measured[key] =
               measure_cpu_ceiling(ceiling, buffer, m_plan.repeats, m_plan.repeat_budget_ms).gbps;
  }

  const DeviceInfo& m_device;
  const BenchPlan& m_plan;  // its repeat rule is the own-size ceilings' too
  std::map<std::pair<Ceiling, std::size_t>, double> m_measured;  // GB/s by ceiling and buffer size
};

BenchRow make_row(ForceMethod solver, int n, Layout layout, std::string kernel, std::string variant,
                  std::vector<KernelTiming> timings, RowCeilings& ceilings, Precision precision) {
  BenchRow row{solver, n, layout, std::move(kernel), std::move(variant), 0, 0, 0, 0, 0, false, 0, 0, 0, 0, 0, {},
               precision};
  if (timings.empty()) return row;
  std::sort(timings.begin(), timings.end(),
            [](const KernelTiming& a, const KernelTiming& b) { return a.milliseconds < b.milliseconds; });
  const KernelTiming& median = timings[timings.size() / 2];
  row.samples = static_cast<int>(timings.size());
  row.median_ms = median.milliseconds;
  row.min_ms = timings.front().milliseconds;
  row.max_ms = timings.back().milliseconds;
  std::vector<double> ms;
  for (const KernelTiming& t : timings) ms.push_back(t.milliseconds);
  row.cv_percent = coefficient_of_variation_percent(ms);
  row.noisy = row.cv_percent > kNoisyCvPercent;
  row.bytes = median.bytes;
  row.scratch_bytes = median.scratch_bytes;
  row.gbps = median.gigabytes_per_second();
  const double copy_peak_gbps = ceilings.device().copy_peak_gbps;
  row.percent_of_copy = copy_peak_gbps > 0 ? 100.0 * row.gbps / copy_peak_gbps : 0.0;
  if (!(median.kernel == KernelKind::Forces && method_info(solver).compute_bound))
    ceilings.compare(row, median.kernel);
  row.interactions = median.interactions;
  row.interactions_per_second = median.interactions_per_second();
  return row;
}

bool sweeps(ForceMethod method, const std::string& kernel) {
  const std::vector<std::string> kernels = swept_kernels(method);
  return std::find(kernels.begin(), kernels.end(), kernel) != kernels.end();
}

}  // namespace

Scene bench_scene(ForceMethod method, int n) {
  Scene scene = preset_scene(std::string(method_info(method).bench_scene));
  scene.particles = n;
  scene.method = method;
  return scene;
}

namespace {
// A row's default sizes: GPU, its list; CPU, its one N, or the first past the last-level cache.
std::vector<int> default_particles(const ForceMethodInfo& row, bool gpu) {
  if (gpu) return {row.bench.gpu.begin(), row.bench.gpu.begin() + row.bench.gpu_count};
  if (row.bench.cpu > 0) return {row.bench.cpu};
  return {cpu_attractor_particles(cpu_facts().last_level_cache_bytes)};
}
}  // namespace

BenchPlan make_bench_plan(const Options& o, bool gpu) {
  BenchPlan plan;
  // --solver keeps one family; --forces one of the rows that name a --forces choice; a row this run's
  // backend has no solver for is left out.
  const auto wanted = [&](const ForceMethodInfo& row) {
    if (o.solver && !same_family(row.method, *o.solver)) return false;
    if (o.forces && has_forces_choice(row.method) && row.method != *o.forces) return false;
    return gpu ? row.on_gpu : row.on_cpu;
  };
  for (const ForceMethodInfo& row : kForceMethodTable) {
    if (!wanted(row)) continue;
    plan.methods.push_back(row.method);
    // GPU: the sizes docs/perf.md reports. CPU: all-pairs small enough for 2 cores; attractors past the
    // last-level cache, as the copy ceiling is, so % of copy compares memory with memory.
    // Keyed by the family (its first row), which the runner steps: --forces mutual keeps only the second
    // row of all-pairs, whose sizes were lost when they were keyed by the row (no rows, exit 0).
    plan.particles[static_cast<std::size_t>(family_of(row.method))] =
        o.bench_particles.empty() ? default_particles(row, gpu) : o.bench_particles;
  }
  plan.layouts =
      o.bench_layouts.empty() ? std::vector<Layout>(kAllLayouts.begin(), kAllLayouts.end()) : o.bench_layouts;
  if (!o.bench_precisions.empty()) plan.precisions = o.bench_precisions;
  plan.cpu_target = o.cpu_target;
  plan.tree = tree_settings_of(o);
  plan.repeats = o.repeats > 0 ? o.repeats : (gpu ? 20 : kCpuRepeats);
  if (!gpu && o.repeats <= 0) {
    plan.min_repeats = kCpuMinRepeats;
    plan.repeat_budget_ms = kCpuRepeatBudgetMs;
  }
  if (!gpu) {
    plan.warmup_calls = 3;  // CPU: no GPU start-up effects to wait out
    // One slow call has faulted its pages in and filled the caches; two more took about 11 s of a default
    // sweep on 2 busy cores (the convert round trips at the default N and the tree's steps, issue 41).
    plan.slow_warmup_calls = 1;
  }
  plan.counters = o.counters;
  return plan;
}

std::vector<std::string> swept_kernels(ForceMethod method) {
  if (!method_info(method).bench_memory_kernels) return {"forces"};
  return {"forces", "integrate", "pack", "convert"};
}

int cpu_attractor_particles(std::optional<std::size_t> last_level_cache_bytes) {
  constexpr int kStep = 1 << 16;
  std::size_t smallest = state_bytes(kAllLayouts[0], kStep);
  for (Layout layout : kAllLayouts) smallest = std::min(smallest, state_bytes(layout, kStep));
  const std::size_t target = std::min(cpu_copy_buffer_bytes(last_level_cache_bytes), kCpuDefaultStateBytes);
  const std::size_t steps = (target + smallest - 1) / smallest;
  return static_cast<int>(std::max<std::size_t>(steps, 1) * kStep);
}

std::vector<BenchRow> run_bench_plan(const BenchPlan& plan, BackendChoice choice, BenchResult& result,
                                     const std::function<void(int, int, const std::string&)>& progress) {
  // The families in plan order: each one's rows share its sizes, scene and state.
  std::vector<ForceMethod> families;
  for (ForceMethod method : plan.methods)
    if (std::find(families.begin(), families.end(), family_of(method)) == families.end())
      families.push_back(family_of(method));
  const auto rows_of = [&](ForceMethod family) {
    std::vector<ForceMethod> rows;
    for (ForceMethod method : plan.methods)
      if (same_family(method, family)) rows.push_back(method);
    return rows;
  };
  // Progress steps per layout: forces (a row per method), integrate, each pack variant, convert there and
  // back.
  const auto steps_per_layout = [&](ForceMethod family) {
    int steps = 0;
    for (ForceMethod method : rows_of(family))
      steps += (sweeps(method, "forces") ? 1 : 0) + (sweeps(method, "integrate") ? 1 : 0);
    return steps + (sweeps(family, "pack") ? static_cast<int>(kAllPackVariants.size()) : 0) +
           (sweeps(family, "convert") ? 2 : 0);
  };
  int total = 0;
  for (ForceMethod family : families)
    total +=
        static_cast<int>(plan.particles_of(family).size() * plan.layouts.size() * plan.precisions.size()) *
        steps_per_layout(family);
  int done = 0;
  std::vector<BenchRow> rows;
  RowCounting counting;
  RowCeilings ceilings(result.device, plan);  // the ceilings measured at start-up, set by the first backend
  for (ForceMethod family : families) {
    const ForceMethod solver = family_of(family);
    for (int n : plan.particles_of(family)) {
      // One scene and state for every precision: float records, exact in each.
      const Scene scene = bench_scene(family, n);
      const std::vector<Particle> initial = generate_initial_state(scene);
      for (Precision precision : plan.precisions) {
        BackendSelection selection = make_backend(choice, n, plan.layouts.front(), precision, plan.cpu_target);
        Backend& backend = *selection.backend;
        backend.set_tree_settings(plan.tree);
        if (!selection.notice.empty() && result.backend_name.empty())
          std::fprintf(stderr, "coalesce: %s\n", selection.notice.c_str());
        if (result.backend_name.empty()) {
          result.backend_name = backend.name();
          result.device = backend.device_info();  // the copy ceiling of this run, measured at start-up
        }
        counting.decide(plan, backend, result);
        backend.upload(initial);
        const std::unique_ptr<PackTarget> target = backend.bench_timing().make_pack_target();
        double time = 0.0;

        for (Layout layout : plan.layouts) {
          backend.set_layout(layout);
          backend.synchronize();
          (void)backend.poll_timings();
          const std::string where = std::string(method_info(solver).solver_name) + " N=" + std::to_string(n) +
                                    " " + std::string(to_string(layout)) + " " +
                                    std::string(to_string(precision));
          auto of = [](KernelKind kind, Layout in) {
            return [in, kind](const KernelTiming& t) { return t.kernel == kind && t.layout == in; };
          };

          // forces and integrate: one step() runs both, each timed on its own. A row per method (its
          // bench_variant says which: one-sided keeps the empty variant of earlier runs).
          for (ForceMethod method : rows_of(family)) {
            const std::string variant(method_info(method).bench_variant);
            const std::string what = where + (variant.empty() ? "" : " " + variant);
            progress(++done, total, what + (sweeps(method, "integrate") ? " forces+integrate" : " forces"));
            const SimParams params = scene.params;
            backend.set_force_method(method);
            const std::function<void()> step = [&] {
              backend.step(params, time);
              time += params.dt;
            };
            warm_up(backend, plan, step);
            std::vector<KernelTiming> both = timed_repeats(backend, what + " forces+integrate", plan, step,
                                                           [](const KernelTiming&) { return true; });
            std::vector<KernelTiming> forces, drift;
            for (const KernelTiming& t : both) (t.kernel == KernelKind::Forces ? forces : drift).push_back(t);
            // The tree's report of the last timed step, before the counter pass steps again under replay.
            const std::optional<TreeReport> report = backend.tree_report();
            const CountedCall counted_step = counting.count(backend, step);
            rows.push_back(make_row(solver, n, layout, "forces", variant, forces, ceilings, precision));
            BenchRow& row = rows.back();
            row.counters = reading_of(counted_step, Launches::AllButLast);
            if (method_info(method).physics == Physics::PairGravity && row.median_ms > 0)
              row.pair_evaluations_per_second = evaluations(method, n, 0) / (row.median_ms * 1e-3);
            if (report) {
              // A GPU walk's count is known only after it ran: the last timed step's, for every sample.
              if (row.interactions <= 0 && report->targets > 0 && row.median_ms > 0) {
                row.interactions = report->counts.particle_particle + report->counts.particle_node;
                row.interactions_per_second = row.interactions / (row.median_ms * 1e-3);
              }
              TreeBench tree{*report, {}, std::random_device{}()};
              if (const auto sample =
                      backend.sample_accelerations(params, error_targets(n, kErrorTargets, tree.seed)))
                tree.errors = force_errors(*sample);
              row.tree = tree;
            }
            if (sweeps(method, "integrate")) {
              progress(++done, total, where + " integrate");
              rows.push_back(make_row(solver, n, layout, "integrate", "", drift, ceilings, precision));
              rows.back().counters = reading_of(counted_step, Launches::Last);
            }
          }

          for (PackVariant variant : kAllPackVariants) {
            if (!sweeps(family, "pack")) break;
            progress(++done, total, where + " pack " + std::string(to_string(variant)));
            const std::function<void()> pack = [&] {
              backend.pack(variant, target->data(), target->space());
            };
            warm_up(backend, plan, pack);
            rows.push_back(make_row(solver, n, layout, "pack", std::string(to_string(variant)),
                                    timed_repeats(backend, where + " pack " + std::string(to_string(variant)),
                                                  plan, pack, of(KernelKind::Pack, layout)),
                                    ceilings, precision));
            rows.back().counters = reading_of(counting.count(backend, pack), Launches::All);
          }

          // convert: to the next layout and back, timed as two rows (layout -> next, next -> layout), so
          // the three layouts' runs cover all six directions.
          if (!sweeps(family, "convert")) continue;
          const Layout next = kAllLayouts[(static_cast<std::size_t>(layout) + 1) % kAllLayouts.size()];
          progress(++done, total, where + " convert");
          const std::function<void()> round_trip = [&] {
            backend.set_layout(next);
            backend.set_layout(layout);
          };
          warm_up(backend, plan, round_trip);
          // Timings carry the destination layout, which tells the two halves of each round trip apart.
          std::vector<KernelTiming> there, back;
          for (const KernelTiming& t :
               timed_repeats(backend, where + " convert round trip", plan, round_trip,
                             [](const KernelTiming& t) { return t.kernel == KernelKind::Convert; }))
            (t.layout == next ? there : back).push_back(t);
          const CountedCall counted_trip = counting.count(backend, round_trip);
          rows.push_back(make_row(solver, n, layout, "convert", "to " + std::string(to_string(next)), there,
                                  ceilings, precision));
          rows.back().counters = reading_of(counted_trip, Launches::FirstHalf);
          progress(++done, total, where + " convert back");
          rows.push_back(make_row(solver, n, next, "convert", "to " + std::string(to_string(layout)), back,
                                  ceilings, precision));
          rows.back().counters = reading_of(counted_trip, Launches::SecondHalf);
        }
      }
    }
  }
  return rows;
}

}  // namespace coalesce
