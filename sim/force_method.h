// The force-method axis: one row per way the forces are computed, as sim/layout.h and sim/precision.h
// are the layout and precision axes. Everything the program asks of a method (its physics, whether it is
// exact, whether a rank can compute a slice, what the start size, the formulas and bench need) is a field
// of its row, so a new method is a row here, its `case` in force_method.cpp, its solver files and one
// CMake line (docs/architecture.md).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/layout.h"

namespace coalesce {

// Rows of kForceMethodTable are in this order; the rows of one solver family are adjacent.
enum class ForceMethod { OneSidedAllPairs, MutualAllPairs, Attractors, Tree };

// What pulls a body: every other body, or the scene's k attractors.
enum class Physics { PairGravity, Attractors };

// What one step evaluates, counted for bench's pairs/s: n^2 ordered pairs (the self term included, as
// every peer counts it), n (n - 1) / 2 unordered pairs, n k body-attractor pulls, or what the solver counted
// as it went (the tree: body-body and body-node pulls, known only after the walk).
enum class Evaluations { OrderedPairs, UnorderedPairs, BodyAttractor, Counted };

// Default bench sizes of a method: up to three on a GPU; on the CPU one fixed N, or the first multiple of
// 65,536 whose state is past the last-level cache (the memory-bound rows need DRAM, not the cache).
struct BenchSizes {
  std::array<int, 3> gpu;
  int gpu_count;
  int cpu;  // 0: past the last-level cache instead
};

struct ForceMethodInfo {
  ForceMethod method;
  std::string_view name;         // logs, NVTX ranges, tests: "one-sided", "mutual", "attractors"
  std::string_view solver_name;  // --solver, the scene's `solver`, JSON "solver"
  std::string_view forces_name;  // --forces and JSON "forces"; empty where the family has one row
  Physics physics;
  bool exact;          // every pair summed in a fixed order, none approximated: auto chooses among exact rows
  bool rank_slices;    // a kick of bodies [begin, end) against all N gives the whole step's bits
  bool sources_move;   // ranks all-gather {x, y, z, m} after each step (bodies pull bodies)
  bool on_cpu;  // the backends with a solver for the row (sim/cpu_solvers.cpp, kernels/gpu_solvers.cpp)
  bool on_gpu;
  int start_exponent;  // the step's time grows as N^k (the viewer's start size)
  Evaluations evaluations;
  std::string_view interactions;   // the formulas' label: "N^2", "N x k"
  bool compute_bound;              // the forces row's headline is interactions/s, not GB/s
  std::string_view bench_scene;    // the preset bench steps
  std::string_view bench_variant;  // the saved run's row key beside the kernel: "", "mutual"
  bool bench_memory_kernels;       // bench also sweeps integrate, pack and convert with this method
  bool cpu_issue_limit;            // the CPU's issue limit applies: its loop's instructions are counted
  BenchSizes bench;
};

inline constexpr ForceMethodInfo kForceMethodTable[] = {
    {ForceMethod::OneSidedAllPairs,
     "one-sided",
     "all-pairs",
     "one-sided",
     Physics::PairGravity,
     true,
     true,
     true,
     true,
     true,
     2,
     Evaluations::OrderedPairs,
     "N^2",
     true,
     "plummer",
     "",
     false,
     true,
     {{65536, 131072, 262144}, 3, 2048}},
    {ForceMethod::MutualAllPairs,
     "mutual",
     "all-pairs",
     "mutual",
     Physics::PairGravity,
     true,
     false,
     true,
     true,
     true,
     2,
     Evaluations::UnorderedPairs,
     "N^2",
     true,
     "plummer",
     "mutual",
     false,
     false,
     {{65536, 131072, 262144}, 3, 2048}},
    {ForceMethod::Attractors,
     "attractors",
     "attractors",
     "",
     Physics::Attractors,
     true,
     true,
     false,
     true,
     true,
     1,
     Evaluations::BodyAttractor,
     "N x k",
     false,
     "swirl",
     "",
     true,
     false,
     {{1 << 20, 1 << 24, 0}, 2, 0}},
    {ForceMethod::Tree,
     "tree",
     "tree",
     "",
     Physics::PairGravity,
     false,
     true,
     true,
     true,
     true,
     1,
     Evaluations::Counted,
     "counted",
     true,
     "galaxies",
     "",
     false,
     false,
     {{1 << 20, 1 << 22, 1 << 24}, 3, 65536}},
};
inline constexpr std::size_t kForceMethodCount = std::size(kForceMethodTable);

constexpr const ForceMethodInfo& method_info(ForceMethod method) {
  return kForceMethodTable[static_cast<std::size_t>(method)];
}

// The first row of `method`'s solver family: what --solver names when --forces does not choose.
constexpr ForceMethod family_of(ForceMethod method) {
  const std::string_view solver = method_info(method).solver_name;
  for (const ForceMethodInfo& row : kForceMethodTable)
    if (row.solver_name == solver) return row.method;
  return method;
}

// Rows of the same family as `method` (itself included).
constexpr bool same_family(ForceMethod a, ForceMethod b) {
  return method_info(a).solver_name == method_info(b).solver_name;
}

// How many rows `method`'s family has (itself included).
constexpr std::size_t family_rows(ForceMethod method) {
  std::size_t rows = 0;
  for (const ForceMethodInfo& row : kForceMethodTable) rows += same_family(row.method, method) ? 1 : 0;
  return rows;
}
// Whether --forces chooses anything in `method`'s family: it has several rows, each named.
constexpr bool has_forces_choice(ForceMethod method) {
  return !method_info(method).forces_name.empty();
}

// --solver: a family, named by its first row.
constexpr std::optional<ForceMethod> parse_solver_family(std::string_view text) {
  for (const ForceMethodInfo& row : kForceMethodTable)
    if (row.solver_name == text) return family_of(row.method);
  return std::nullopt;
}

// --forces within a family: its row of that name; none for "auto" or a name the family lacks.
constexpr std::optional<ForceMethod> parse_forces_in(ForceMethod family, std::string_view text) {
  for (const ForceMethodInfo& row : kForceMethodTable)
    if (same_family(row.method, family) && !row.forces_name.empty() && row.forces_name == text)
      return row.method;
  return std::nullopt;
}

// What --forces auto measures: the exact rows of `family` (approximate ones are never chosen for speed),
// in table order; the first is the baseline the others must clearly beat.
inline std::vector<ForceMethod> auto_candidates(ForceMethod family) {
  std::vector<ForceMethod> rows;
  for (const ForceMethodInfo& row : kForceMethodTable)
    if (same_family(row.method, family) && row.exact) rows.push_back(row.method);
  return rows;
}

// bench's row key: the row of `family` whose bench_variant is `variant`; none for a variant it lacks.
constexpr std::optional<ForceMethod> bench_method(ForceMethod family, std::string_view variant) {
  for (const ForceMethodInfo& row : kForceMethodTable)
    if (same_family(row.method, family) && row.bench_variant == variant) return row.method;
  return std::nullopt;
}

// Evaluations of one step of n bodies against k attractors, bench's pairs/s.
constexpr double evaluations(ForceMethod method, int n, int attractors) {
  const double count = n;
  switch (method_info(method).evaluations) {
    case Evaluations::OrderedPairs:
      return count * count;
    case Evaluations::UnorderedPairs:
      return count * (count - 1.0) / 2.0;
    case Evaluations::BodyAttractor:
      return count * attractors;
    case Evaluations::Counted:
      return 0.0;  // unknown before the walk: the solver counts (ForceCost::counted)
  }
  return 0.0;
}

// Interactions of a kick of `targets` bodies, the figure peers report: every target against all n bodies
// (n^2 for a whole step whichever pairs are evaluated), or against k attractors; 0 for a counted row, whose
// solver reports them (ForceCost::counted).
constexpr double interactions(ForceMethod method, int targets, int n, int attractors) {
  if (method_info(method).evaluations == Evaluations::Counted) return 0.0;
  return method_info(method).physics == Physics::PairGravity ? static_cast<double>(targets) * n
                                                             : static_cast<double>(targets) * attractors;
}

// --forces: the row of that name (only a family of several names its rows); none for "auto" or a name no
// row has. Whether the run's family has it is the caller's question (same_family).
constexpr std::optional<ForceMethod> parse_forces(std::string_view text) {
  for (const ForceMethodInfo& row : kForceMethodTable)
    if (!row.forces_name.empty() && row.forces_name == text) return row.method;
  return std::nullopt;
}

// "all-pairs or attractors": the families (their first rows' solver names) in words, for the messages of
// scene and bench files, which are not the command line's "a|b" lists.
inline std::string solver_family_words() {
  std::vector<std::string_view> names;
  for (const ForceMethodInfo& row : kForceMethodTable)
    if (row.method == family_of(row.method)) names.push_back(row.solver_name);
  std::string words;
  for (std::size_t i = 0; i < names.size(); ++i)
    words += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + std::string(names[i]);
  return words;
}

// The choices the help lists, checked against the table in force_method.cpp.
inline constexpr std::string_view kSolverFamilyChoices = "all-pairs|attractors|tree";
// --forces takes a row of the pair-gravity family or auto: measured at the start (sim/auto_choice.h).
inline constexpr std::string_view kForcesChoices = "one-sided|mutual|auto";

}  // namespace coalesce
