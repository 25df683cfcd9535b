// The CPU backend's instruction-set axis: one row per SIMD target the force, integrate and pack loops are
// compiled for (sim/cpu_simd.cpp, through Highway's per-target compilation), plus the scalar reference loop
// (sim/cpu_kernels.h). One binary holds them all; the best one the CPU runs is chosen at start, and
// --cpu-target forces a lower one so every path can be measured and tested on one machine.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coalesce {

// Rows of kCpuTargetTable are in this order, widest first.
enum class CpuTarget { Avx512, Avx2, Sse4, Scalar };

struct CpuTargetInfo {
  CpuTarget target;
  std::string_view name;   // as --cpu-target, the JSON and the tests spell it
  std::string_view label;  // as the panel and the bench header show it
  int vector_bits;         // one SIMD register; the scalar loop works one lane at a time
};

inline constexpr CpuTargetInfo kCpuTargetTable[] = {
    {CpuTarget::Avx512, "avx512", "AVX-512", 512},
    {CpuTarget::Avx2, "avx2", "AVX2", 256},
    {CpuTarget::Sse4, "sse4", "SSE4", 128},
    {CpuTarget::Scalar, "scalar", "scalar", 0},
};
inline constexpr std::size_t kCpuTargetCount = std::size(kCpuTargetTable);

// --cpu-target's choices: "best" and then every row's name in table order (static-checked below).
inline constexpr std::string_view kCpuTargetChoices = "best|avx512|avx2|sse4|scalar";

constexpr const CpuTargetInfo& cpu_target_info(CpuTarget target) {
  return kCpuTargetTable[static_cast<std::size_t>(target)];
}
constexpr std::string_view to_string(CpuTarget target) { return cpu_target_info(target).name; }
constexpr std::optional<CpuTarget> parse_cpu_target_name(std::string_view text) {
  for (const CpuTargetInfo& row : kCpuTargetTable)
    if (row.name == text) return row.target;
  return std::nullopt;
}

// Lanes of one register for a scalar of `scalar_bytes`; 1 for the scalar loop.
constexpr int cpu_target_lanes(CpuTarget target, std::size_t scalar_bytes) {
  const int bits = cpu_target_info(target).vector_bits;
  return bits == 0 ? 1 : bits / static_cast<int>(8 * scalar_bytes);
}

// Whether this CPU (and its OS) runs the target; the scalar loop runs everywhere (sim/cpu_simd.cpp asks
// Highway, which reads CPUID and XGETBV).
bool cpu_target_supported(CpuTarget target);

// The widest supported row: what the backend uses unless told otherwise.
CpuTarget best_cpu_target();

// Every supported row's name, widest first: "avx512, avx2, sse4, scalar".
std::string supported_cpu_targets_text();

// Why `target` cannot be used here: "this CPU does not run AVX-512 (it runs avx2, sse4, scalar)".
std::string unsupported_cpu_target_text(CpuTarget target);

namespace detail {
template <std::size_t... I>
constexpr bool cpu_targets_in_order(std::index_sequence<I...>) {
  return ((kCpuTargetTable[I].target == static_cast<CpuTarget>(I)) && ...);
}
static_assert(cpu_targets_in_order(std::make_index_sequence<kCpuTargetCount>{}),
              "kCpuTargetTable rows must follow the CpuTarget enumerators' order");
constexpr bool cpu_target_choices_list_the_table() {
  constexpr std::string_view best = "best";
  if (kCpuTargetChoices.substr(0, best.size()) != best) return false;
  std::size_t at = best.size();
  for (const CpuTargetInfo& row : kCpuTargetTable) {
    if (at >= kCpuTargetChoices.size() || kCpuTargetChoices[at++] != '|') return false;
    if (kCpuTargetChoices.substr(at, row.name.size()) != row.name) return false;
    at += row.name.size();
  }
  return at == kCpuTargetChoices.size();
}
static_assert(cpu_target_choices_list_the_table(), "kCpuTargetChoices must be best, then the table's names");
}  // namespace detail

}  // namespace coalesce
