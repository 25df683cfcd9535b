// The force-method table (sim/force_method.h): names that parse back to their rows, the counts peers report,
// and rank_slices as the backends' behaviour. Random sizes; the seed is printed on failure.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "sim/byte_counts.h"
#include "sim/cpu_backend.h"
#include "sim/force_method.h"
#include "sim/layout.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

// --solver names a family (its first row), --forces a row of it; every name parses back to its own row.
TEST(ForceMethod, NamesParseBackToTheirRows) {
  for (const ForceMethodInfo& row : kForceMethodTable) {
    SCOPED_TRACE(std::string(row.name));
    EXPECT_EQ(parse_solver_family(row.solver_name), family_of(row.method));
    EXPECT_EQ(method_info(family_of(row.method)).solver_name, row.solver_name);
    EXPECT_EQ(row.forces_name.empty() ? std::optional<ForceMethod>() : std::optional(row.method),
              parse_forces_in(family_of(row.method), row.forces_name));
    if (!row.forces_name.empty()) {
      EXPECT_EQ(parse_forces(row.forces_name), row.method);
    }
    EXPECT_EQ(has_forces_choice(row.method), !row.forces_name.empty());
  }
  // The scene and bench files' messages name the families as they did when they were written out.
  EXPECT_EQ(solver_family_words(), "all-pairs, attractors or tree");
  EXPECT_FALSE(parse_solver_family("barnes-hut").has_value());
  EXPECT_FALSE(parse_forces("auto").has_value());
  EXPECT_FALSE(parse_forces("").has_value());
  EXPECT_FALSE(parse_forces_in(ForceMethod::Attractors, "mutual").has_value());
  EXPECT_FALSE(parse_forces_in(ForceMethod::OneSidedAllPairs, "auto").has_value());
}

// The counts bench and the formulas report: every target against all n bodies (n^2 a step whichever pairs
// are evaluated), n^2 ordered pairs one-sided (the self term included), n (n - 1) / 2 mutual, n k pulls.
TEST(ForceMethod, CountsAreTheOnesPeersReport) {
  testing::TestRng rng;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = rng.uniform_int(1, 1 << 27);
    const int targets = rng.uniform_int(0, n);
    const int k = rng.uniform_int(1, 16);
    SCOPED_TRACE("n " + std::to_string(n) + " targets " + std::to_string(targets) + " k " +
                 std::to_string(k));
    const double nn = static_cast<double>(n);
    EXPECT_EQ(evaluations(ForceMethod::OneSidedAllPairs, n, k), nn * nn);
    EXPECT_EQ(evaluations(ForceMethod::MutualAllPairs, n, k), nn * (nn - 1) / 2);
    EXPECT_EQ(evaluations(ForceMethod::Attractors, n, k), nn * k);
    for (ForceMethod pairs : {ForceMethod::OneSidedAllPairs, ForceMethod::MutualAllPairs}) {
      EXPECT_EQ(interactions(pairs, targets, n, k), static_cast<double>(targets) * nn);
      EXPECT_EQ(interactions(KernelKind::Forces, pairs, targets, n, k), static_cast<double>(targets) * nn);
    }
    EXPECT_EQ(interactions(ForceMethod::Attractors, targets, n, k), static_cast<double>(targets) * k);
    EXPECT_EQ(interactions(KernelKind::Integrate, ForceMethod::OneSidedAllPairs, targets, n, k), 0.0);
  }
  // The labels the formulas print (docs/kernels.md).
  EXPECT_EQ(interactions_label(KernelKind::Forces, ForceMethod::OneSidedAllPairs), "N^2");
  EXPECT_EQ(interactions_label(KernelKind::Forces, ForceMethod::Attractors), "N x k");
  EXPECT_EQ(interactions_label(KernelKind::Pack, ForceMethod::OneSidedAllPairs), "");
}

// rank_slices is what the CPU backend does: a slice [begin, end) of a row without it is refused, of a row
// with it stepped (the GPU's refusal is tests/kernels' twin).
TEST(ForceMethod, RankSlicesIsWhetherTheBackendStepsASlice) {
  testing::TestRng rng;
  const int n = rng.uniform_int(130, 2000);
  const int begin = rng.uniform_int(1, n / 2), end = rng.uniform_int(begin + 1, n - 1);
  SCOPED_TRACE("n " + std::to_string(n) + " slice [" + std::to_string(begin) + ", " + std::to_string(end) +
               ")");
  for (const ForceMethodInfo& row : kForceMethodTable) {
    SCOPED_TRACE(std::string(row.name));
    CpuBackend cpu(n, testing::random_layout(rng), 1, testing::random_precision(rng));
    cpu.upload(testing::random_particles(rng, n));
    cpu.set_force_method(row.method);
    SimParams params;
    params.attractors.count = row.physics == Physics::Attractors ? rng.uniform_int(1, kMaxAttractors) : 0;
    if (row.rank_slices)
      EXPECT_NO_THROW(cpu.step_range(params, 0.0, begin, end));
    else
      EXPECT_THROW(cpu.step_range(params, 0.0, begin, end), std::invalid_argument);
  }
}

}  // namespace
}  // namespace coalesce
