// The force-method table's checks (sim/force_method.h): a new enumerator stops the build until its row
// exists and says all a row must.
#include "sim/force_method.h"

#include <cstddef>
#include <string_view>

#include "sim/table_checks.h"

namespace coalesce {
namespace {

// Compiled with -Werror=switch (sim/CMakeLists.txt): a new ForceMethod enumerator stops the build here
// until it is listed, and the static_asserts below then demand its table row.
constexpr bool is_enumerator(int value) {
  switch (static_cast<ForceMethod>(value)) {
    case ForceMethod::OneSidedAllPairs:
    case ForceMethod::MutualAllPairs:
    case ForceMethod::Attractors:
    case ForceMethod::Tree:
      return true;
  }
  return false;
}

constexpr bool names_unique() {
  for (std::size_t i = 0; i < kForceMethodCount; ++i)
    for (std::size_t j = i + 1; j < kForceMethodCount; ++j) {
      const ForceMethodInfo &a = kForceMethodTable[i], &b = kForceMethodTable[j];
      if (a.name == b.name || (a.solver_name == b.solver_name && a.forces_name == b.forces_name))
        return false;
    }
  return true;
}

// A family's rows are adjacent, share their physics, and name a --forces choice exactly when there are
// several to choose from; a family of several has an exact row for auto to start from.
constexpr bool families_well_formed() {
  for (std::size_t i = 0; i < kForceMethodCount; ++i) {
    const ForceMethodInfo& row = kForceMethodTable[i];
    const std::size_t size = family_rows(row.method);
    if (row.solver_name.empty() || row.name.empty()) return false;
    if (row.forces_name.empty() != (size == 1)) return false;
    if (i > 0 && kForceMethodTable[i - 1].solver_name != row.solver_name) {
      for (std::size_t j = 0; j < i; ++j)
        if (kForceMethodTable[j].solver_name == row.solver_name) return false;  // the family split
    }
    const ForceMethodInfo& head = method_info(family_of(row.method));
    if (head.physics != row.physics) return false;
    bool exact = false;
    for (const ForceMethodInfo& other : kForceMethodTable)
      exact = exact || (other.solver_name == row.solver_name && other.exact);
    if (size > 1 && !exact) return false;
  }
  return true;
}

constexpr bool costs_and_sizes_sound() {
  for (const ForceMethodInfo& row : kForceMethodTable) {
    if (row.start_exponent < 1 || row.interactions.empty() || row.bench_scene.empty()) return false;
    if (!row.on_cpu && !row.on_gpu) return false;
    if (row.bench.gpu_count < 1 || row.bench.gpu_count > static_cast<int>(row.bench.gpu.size())) return false;
    for (int k = 0; k < row.bench.gpu_count; ++k)
      if (row.bench.gpu[static_cast<std::size_t>(k)] <= 0) return false;
    if ((row.physics == Physics::PairGravity) != row.sources_move) return false;  // bodies pull bodies
  }
  return true;
}

// "a|b|c" lists `names` in order, each once; `extra` (if any) last.
template <class Name>
constexpr bool choices_list(std::string_view choices, Name name, std::string_view extra) {
  std::size_t at = 0;
  bool first = true;
  const auto take = [&](std::string_view word) {
    if (!first && (at >= choices.size() || choices[at++] != '|')) return false;
    first = false;
    if (choices.substr(at, word.size()) != word) return false;
    at += word.size();
    return true;
  };
  for (std::size_t i = 0; i < kForceMethodCount; ++i) {
    const std::string_view word = name(i);
    if (word.empty()) continue;
    bool seen = false;
    for (std::size_t j = 0; j < i; ++j) seen = seen || name(j) == word;
    if (!seen && !take(word)) return false;
  }
  if (!extra.empty() && !take(extra)) return false;
  return at == choices.size();
}

static_assert(enumerator_count(is_enumerator) == kForceMethodCount,
              "every ForceMethod enumerator needs its table row");
static_assert(rows_in_enum_order(kForceMethodTable, [](const auto& row) { return row.method; }),
              "kForceMethodTable rows must follow the ForceMethod enumerators' order");
static_assert(names_unique(), "each row needs its own name and its own --solver/--forces pair");
static_assert(
    families_well_formed(),
    "a family's rows must be adjacent, share physics, have an exact row, and name --forces iff several");
static_assert(costs_and_sizes_sound(),
              "each row needs a start exponent, a label, a bench scene, sizes and a backend");
static_assert(choices_list(
                  kSolverFamilyChoices, [](std::size_t i) { return kForceMethodTable[i].solver_name; }, ""),
              "kSolverFamilyChoices must list the families in table order");
static_assert(choices_list(
                  kForcesChoices, [](std::size_t i) { return kForceMethodTable[i].forces_name; }, "auto"),
              "kForcesChoices must list the --forces names in table order, then auto");

}  // namespace
}  // namespace coalesce
