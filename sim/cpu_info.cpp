// The CPU's facts (sim/cpu_facts.h): /proc/cpuinfo and sysfs for the model, cores, clock and caches; the
// build's own target for the SIMD width; a multi-threaded copy past the last-level cache for the ceiling.
#include "sim/cpu_info.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include "sim/cpu_target.h"
#include "sim/layout_storage.h"
#include "sim/thread_pool.h"
#include "sim/usable_cpus.h"

namespace coalesce {

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kCacheLine = 64;  // the ceilings' threads split their buffers into whole lines

// The all-pairs inner loop of each target and precision as GCC 12 -O3 builds it for x86-64 (no -march):
// instructions per iteration and the multiply-class ones among them, counted by scripts/cpu-loop-count in
// `objdump -d` of cpu_simd.cpp.o; tests/sim/cpu_loop_count_test.cpp counts them again in the build it runs
// in. Another compiler or other
// flags: not counted, so unknown.
struct LoopCount {
  int instructions;
  int fp_pipe;
};
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ == 12 && \
    defined(__OPTIMIZE__) && !defined(__AVX__)
constexpr bool kLoopsCounted = true;
#else
constexpr bool kLoopsCounted = false;
#endif
// By kCpuTargetTable row, then by precision.
// The scalar reference is not counted: GCC inlines it differently in each layout's and solver's step.
constexpr LoopCount kLoopCounts[kCpuTargetCount][kPrecisionCount] = {
    {{45, 28}, {49, 32}},  // avx512
    {{46, 28}, {56, 34}},  // avx2
    {{83, 28}, {93, 34}},  // sse4
    {{0, 0}, {0, 0}},      // scalar
};

// Targets one pass over a source serves: two registers of lanes in the SIMD loop (sim/cpu_simd.cpp), one
// particle in the scalar one.
int interactions_per_iteration(CpuTarget target, Precision precision) {
  if (target == CpuTarget::Scalar) return 1;
  return 2 * cpu_target_lanes(target, scalar_bytes(precision));
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// The value after "key<spaces>: " of the first /proc/cpuinfo line starting with `key`; "" when none.
std::string cpuinfo_value(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return "";
}

std::optional<double> positive_number(const std::string& text) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (used > 0 && value > 0) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

// The clock a core runs at now, from the time of a chain of dependent register-to-register adds (one cycle
// each on x86-64 cores; Intel's Golden Cove folds adds of an immediate at rename, so the addend is a
// register): the fastest of three 40-million-cycle chains. A VM's /proc/cpuinfo gives the nominal clock,
// and its cores may boost well past it. Above 7 GHz the chain was not what it seemed: unknown.
std::optional<double> measured_clock_mhz() {
#if defined(__x86_64__) && defined(__GNUC__)
  constexpr long kIterations = 10'000'000;  // 4 dependent adds each
  double best_seconds = 0;
  for (int run = 0; run < 3; ++run) {
    long left = kIterations, sum = 0;
    const long one = 1;
    const auto start = std::chrono::steady_clock::now();
    asm volatile("1:\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tadd %2, %0\n\tdec %1\n\tjnz 1b"
                 : "+r"(sum), "+r"(left)
                 : "r"(one));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (run == 0 || seconds < best_seconds) best_seconds = seconds;
  }
  constexpr double kMostPlausibleMhz = 7000;
  const double mhz = best_seconds > 0 ? 4.0 * kIterations / best_seconds / 1e6 : 0;
  if (mhz > 0 && mhz <= kMostPlausibleMhz) return mhz;
#endif
  return std::nullopt;
}

// cpufreq's maximum (kHz) is the clock the limit should use; without it (a VM), the clock measured now;
// /proc/cpuinfo's "cpu MHz" (the current or nominal one) last.
void read_clock(CpuFacts& f) {
  if (const auto khz = positive_number(first_line("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq"))) {
    f.clock_mhz = *khz / 1e3;
    f.clock_source = "/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq";
  } else if (const auto mhz = measured_clock_mhz()) {
    f.clock_mhz = *mhz;
    f.clock_source = "measured: a chain of dependent adds on one core";
  } else if (const auto mhz = positive_number(cpuinfo_value("cpu MHz"))) {
    f.clock_mhz = *mhz;
    f.clock_source = "/proc/cpuinfo cpu MHz";
  }
}

// Distinct (package, core) pairs over the usable CPUs; none when sysfs does not say.
std::optional<int> physical_cores(const std::vector<int>& cpus) {
  std::set<std::pair<std::string, std::string>> cores;
  for (int cpu : cpus) {
    const std::string dir = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) + "/topology/";
    const std::string core = first_line(dir + "core_id");
    if (core.empty()) return std::nullopt;
    cores.insert({first_line(dir + "physical_package_id"), core});
  }
  return cores.empty() ? std::nullopt : std::optional<int>(static_cast<int>(cores.size()));
}

// The highest-level data or unified cache of cpu0 in sysfs, else sysconf's L3.
void read_last_level_cache(CpuFacts& f) {
  for (int index = 0; index < 16; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string type = first_line(dir + "type");
    if (type.empty()) break;
    if (type == "Instruction") continue;
    const auto level = positive_number(first_line(dir + "level"));
    const auto size = parse_cache_size(first_line(dir + "size"));
    if (level && size && static_cast<int>(*level) >= f.last_level_cache_level) {
      f.last_level_cache_level = static_cast<int>(*level);
      f.last_level_cache_bytes = *size;
    }
  }
  if (f.last_level_cache_bytes) return;
#ifdef _SC_LEVEL3_CACHE_SIZE
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l3 > 0) {
    f.last_level_cache_bytes = static_cast<std::size_t>(l3);
    f.last_level_cache_level = 3;
  }
#endif
}

// One pass of a ceiling over words [first, last). Not instrumented by the sanitizers: the ceiling is the
// machine's, and a sanitized build would otherwise measure its own checks (and take minutes doing it).
// Built for the widest vectors too, as the kernels are (sim/cpu_simd.cpp): in the cache a 128-bit loop is
// slower than the AVX-512 pack, which then beat its own-size ceiling by 27% (issue 41).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define COALESCE_WIDEST_VECTORS __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define COALESCE_WIDEST_VECTORS
#endif
COALESCE_WIDEST_VECTORS __attribute__((no_sanitize("address", "undefined"))) void move_words(
    Ceiling c, std::uint32_t* to, const std::uint32_t* from, std::size_t first, std::size_t last,
    std::uint32_t key) {
  switch (c) {
    case Ceiling::Copy:
      std::memcpy(to + first, from + first, (last - first) * sizeof(std::uint32_t));
      break;
    case Ceiling::InPlace:
      for (std::size_t i = first; i < last; ++i) to[i] += from[i];
      break;
    case Ceiling::ToOther:
      for (std::size_t i = first; i < last; ++i) to[i] = from[i] ^ key;
      break;
  }
}

// A buffer of `bytes` on 2 MiB boundaries with transparent huge pages asked for: faulting it in 4 KiB pages
// cost more than all the timed passes on a virtual machine (seconds per GiB), and the TLB misses of small
// pages are no part of the ceiling either.
struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using WordBuffer = std::unique_ptr<std::uint32_t[], FreeDeleter>;
WordBuffer huge_page_buffer(std::size_t bytes, unsigned char fill) {
  constexpr std::size_t kHugePage = 2 * kMiB;
  const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
  WordBuffer buffer(static_cast<std::uint32_t*>(std::aligned_alloc(kHugePage, rounded)));
  if (!buffer) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(buffer.get(), rounded, MADV_HUGEPAGE);  // advice only: without THP the passes still run
#endif
  std::memset(buffer.get(), fill, rounded);  // faulted in before any timing
  return buffer;
}

// Ceiling passes over one pair of buffers (whole cache lines) with every thread of a pool as large as the
// kernels': each thread moves its contiguous part as the ceiling's row says. The word loops are plain C++
// so the compiler vectorizes them with ordinary stores, as it does the kernels.
class CeilingPasses {
 public:
  CeilingPasses(std::size_t buffer_bytes, int threads)
      : m_bytes(std::max(buffer_bytes / kCacheLine, std::size_t{1}) * kCacheLine),
        m_a(huge_page_buffer(m_bytes, 1)),
        m_b(huge_page_buffer(m_bytes, 0)),
        m_pool(threads) {}

  // The median of the timed passes after `warmups`, and their range; bytes read + written, 1 GB = 1e9 B.
  // At least `copies` passes, then more until `most` or until they have taken `budget_seconds` (0: none).
  CpuCeilingMeasure measure(Ceiling c, int warmups, int copies, int most = 0, double budget_seconds = 0) {
    for (int i = 0; i < warmups; ++i) pass(c);
    const CeilingInfo& row = ceiling_info(c);
    const double bytes = static_cast<double>(row.buffers_read + row.buffers_written) * m_bytes;
    std::vector<double> gbps;
    double spent = 0;
    for (int i = 0; i < std::max(copies, most); ++i) {
      if (i >= copies && budget_seconds > 0 && spent >= budget_seconds) break;
      const auto start = std::chrono::steady_clock::now();
      pass(c);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      spent += seconds;
      gbps.push_back(bytes / seconds / 1e9);
      m_a[static_cast<std::size_t>(i) * kCacheLine / sizeof(Word) % words()] = m_b[0];  // each result is read
    }
    std::sort(gbps.begin(), gbps.end());
    return {gbps[gbps.size() / 2], gbps.front(), gbps.back()};
  }

 private:
  using Word = std::uint32_t;
  std::size_t words() const { return m_bytes / sizeof(Word); }

  void pass(Ceiling c) {
    // Unknown to the compiler, so b = a ^ key stays a loop of loads and stores, not a memcpy call.
    volatile Word key_source = 0;
    const Word key = key_source;
    constexpr std::size_t kWordsPerLine = kCacheLine / sizeof(Word);
    m_pool.parallel_for(static_cast<int>(m_bytes / kCacheLine), [&](int begin, int end) {
      move_words(c, m_b.get(), m_a.get(), static_cast<std::size_t>(begin) * kWordsPerLine,
                 static_cast<std::size_t>(end) * kWordsPerLine, key);
    });
  }

  std::size_t m_bytes;
  WordBuffer m_a, m_b;
  ThreadPool m_pool;
};

// The start-up ceilings (sim/memory_ceiling.h), all three over one pair of buffers past the cache.
void measure_ceilings(CpuCopyMethod& m, std::array<CpuCeilingMeasure, kCeilingCount>& out) {
  CeilingPasses passes(m.buffer_bytes, m.threads);
  for (const CeilingInfo& row : kCeilingTable)
    out[static_cast<std::size_t>(row.ceiling)] = passes.measure(row.ceiling, m.warmups, m.copies);
  const CpuCeilingMeasure& copy = out[static_cast<std::size_t>(Ceiling::Copy)];
  m.min_gbps = copy.min_gbps;
  m.max_gbps = copy.max_gbps;
}

CpuFacts read_facts() {
  CpuFacts f;
  f.model = cpuinfo_value("model name");
  if (f.model.empty()) f.model = "unknown CPU";
  const UsableCpus usable = usable_cpus();
  f.threads = usable.count;  // CpuBackend's default pool
  f.online_cpus = usable.online;
  f.cpu_quota = usable.quota;
  f.threads_rule = usable.describe();
  f.cores = physical_cores(usable.affinity);
  read_clock(f);
  read_last_level_cache(f);
  f.copy.buffer_bytes = cpu_copy_buffer_bytes(f.last_level_cache_bytes);
  f.copy.threads = f.threads;
  f.copy.warmups = 2;
  f.copy.copies = 9;
  measure_ceilings(f.copy, f.ceilings);
  return f;
}

const CpuFacts& measured() {
  static const CpuFacts facts = read_facts();  // once per process: every backend shares one measurement
  return facts;
}

}  // namespace

CpuCeilingMeasure measure_cpu_ceiling(Ceiling c, std::size_t buffer_bytes, int most_passes,
                                      double budget_ms) {
  const CpuCopyMethod& m = measured().copy;
  return CeilingPasses(buffer_bytes, m.threads).measure(c, m.warmups, m.copies, most_passes, budget_ms / 1e3);
}

std::size_t cpu_ceiling_buffer_bytes(Ceiling c, double row_bytes, std::size_t startup_buffer_bytes) {
  const CeilingInfo& row = ceiling_info(c);
  const double share = row_bytes / (row.buffers_read + row.buffers_written);
  if (!(share < static_cast<double>(startup_buffer_bytes))) return startup_buffer_bytes;
  return std::max(static_cast<std::size_t>(share) / kCacheLine, std::size_t{1}) * kCacheLine;
}

std::optional<bool> fits_in_cache(std::size_t buffer_bytes,
                                  std::optional<std::size_t> last_level_cache_bytes) {
  if (!last_level_cache_bytes) return std::nullopt;
  return kCeilingBuffers * buffer_bytes <= *last_level_cache_bytes;
}

std::optional<std::size_t> cpu_last_level_cache_bytes() {
  CpuFacts f;
  read_last_level_cache(f);
  return f.last_level_cache_bytes;
}

std::size_t cpu_copy_buffer_bytes(std::optional<std::size_t> last_level_cache_bytes) {
  if (!last_level_cache_bytes) return 256 * kMiB;
  const std::size_t bytes = std::clamp(4 * *last_level_cache_bytes, 64 * kMiB, 1024 * kMiB);
  return bytes / kMiB * kMiB;  // whole MiB, as the header and docs/bench-json.md state it
}

std::optional<std::size_t> parse_cache_size(const std::string& text) {
  std::size_t used = 0;
  unsigned long long value = 0;
  try {
    value = std::stoull(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || value == 0) return std::nullopt;
  const std::string unit = text.substr(used);
  if (unit.empty()) return static_cast<std::size_t>(value);
  if (unit == "K") return static_cast<std::size_t>(value) << 10;
  if (unit == "M") return static_cast<std::size_t>(value) << 20;
  if (unit == "G") return static_cast<std::size_t>(value) << 30;
  return std::nullopt;
}

int cpu_instruction_bits(const CpuFacts& f, Precision precision) {
  return f.vector_bits > 0 ? f.vector_bits : 8 * static_cast<int>(scalar_bytes(precision));
}

double fp_pipe_instructions_per_cycle(const CpuFacts& f, Precision precision) {
  return f.fp_pipes * std::min(1.0, static_cast<double>(f.fp_pipe_bits) / cpu_instruction_bits(f, precision));
}

std::optional<double> cpu_issue_limit(const CpuFacts& f, Precision precision) {
  const CpuForceLoop& loop = f.force_loop(precision);
  if (!f.clock_mhz || !loop.fp_pipe_instructions || *loop.fp_pipe_instructions <= 0) return std::nullopt;
  return cpu_cores_used(f) * *f.clock_mhz * 1e6 * fp_pipe_instructions_per_cycle(f, precision) *
         loop.interactions_per_iteration / *loop.fp_pipe_instructions;
}

double cpu_cores_used(const CpuFacts& f) {
  const double cores = std::min(f.threads, f.cores.value_or(f.threads));
  return f.cpu_quota ? std::min(cores, *f.cpu_quota) : cores;
}

const CpuFacts& cpu_facts() {
  return measured();
}

CpuFacts cpu_facts(CpuTarget target) {
  CpuFacts f = measured();
  const CpuTargetInfo& row = cpu_target_info(target);
  f.target = std::string(row.name);
  f.vector_bits = row.vector_bits;
  const std::string how = target == best_cpu_target() ? "the widest this CPU runs" : "chosen by --cpu-target";
  f.simd = target == CpuTarget::Scalar
               ? "scalar, the reference loop (" + how + ")"
               : std::string(row.label) + ", " + std::to_string(row.vector_bits) + "-bit, " + how;
  f.simd_use =
      target == CpuTarget::Scalar
          ? "one interaction per iteration, in the reference order"
          : "two registers of targets per source: " +
                std::to_string(interactions_per_iteration(target, Precision::Fp32)) + " fp32 or " +
                std::to_string(interactions_per_iteration(target, Precision::Fp64)) +
                " fp64 interactions per iteration, m/r^3 from the target's rsqrt seed and a series";
  for (const PrecisionInfo& p : kPrecisionTable) {
    CpuForceLoop& loop = f.force_loop(p.precision);
    loop.interactions_per_iteration = interactions_per_iteration(target, p.precision);
    const LoopCount count =
        kLoopCounts[static_cast<std::size_t>(target)][static_cast<std::size_t>(p.precision)];
    if (kLoopsCounted && count.instructions > 0) {
      loop.instructions_per_iteration = count.instructions;
      loop.fp_pipe_instructions = count.fp_pipe;
    }
    loop.issue_limit = cpu_issue_limit(f, p.precision);
  }
  return f;
}

DeviceInfo cpu_device_info(CpuTarget target) {
  const CpuFacts& facts = measured();
  DeviceInfo d;
  d.name = facts.model;
  d.multiprocessors = facts.threads;
  // The CPU backend's "device memory" is the machine's RAM, so the panel does not read 0 GiB.
  d.memory_bytes =
      static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  d.copy_peak_gbps = facts.ceiling(Ceiling::Copy).gbps;
  d.cpu = cpu_facts(target);
  return d;
}

}  // namespace coalesce
