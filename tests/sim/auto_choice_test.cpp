// auto's limits (sim/auto_choice.h): nothing timed for a run of no steps, nothing past its budget, and a stop
// signal ends the measurement; in every case the state is put back bit for bit and the first row chosen.
#include <gtest/gtest.h>

#include <vector>

#include "sim/auto_choice.h"
#include "sim/cpu_backend.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

struct BackendState {
  std::vector<Particle> state;
  CpuBackend backend;
  explicit BackendState(TestRng& rng)
      : state(testing::random_particles(rng, rng.uniform_int(64, 512))),
        backend(static_cast<int>(state.size()), testing::random_layout(rng), 2) {
    backend.upload(state);
  }
};

TEST(AutoChoice, LimitsKeepTheFirstRowAndTheStateAsItWas) {
  TestRng rng;
  const SimParams params;
  struct Case {
    AutoLimits limits;
    const char* why;
  };
  const std::vector<Case> cases = {
      {AutoLimits{3.0, {}, false}, "nothing measured: no step runs"},
      {AutoLimits{1e-12, {}, true}, "not measured: a one-sided step takes about"},
      {AutoLimits{3.0, [] { return true; }, true}, "not measured: a stop signal came"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    BackendState run(rng);
    run.backend.set_force_method(ForceMethod::MutualAllPairs);
    const MeasuredForceMethod measured =
        measure_force_methods(run.backend, ForceMethod::OneSidedAllPairs, params, 0.0, c.limits);
    EXPECT_EQ(measured.chosen, ForceMethod::OneSidedAllPairs);
    EXPECT_EQ(run.backend.force_method(), ForceMethod::OneSidedAllPairs);
    EXPECT_TRUE(measured.rates.empty());
    EXPECT_EQ(measured.unmeasured.rfind(c.why, 0), 0u) << measured.unmeasured;
    EXPECT_TRUE(testing::bitwise_equal(run.backend.download(), run.state));
  }
}

TEST(AutoChoice, WithinTheBudgetEveryRowIsTimedAndTheStateKept) {
  TestRng rng;
  BackendState run(rng);
  const MeasuredForceMethod measured =
      measure_force_methods(run.backend, ForceMethod::OneSidedAllPairs, SimParams{}, 0.0, AutoLimits{});
  EXPECT_TRUE(measured.unmeasured.empty()) << measured.unmeasured;
  EXPECT_EQ(measured.rates.size(), auto_candidates(ForceMethod::OneSidedAllPairs).size());
  for (const MethodRate& rate : measured.rates) EXPECT_GT(rate.interactions_per_second, 0.0);
  EXPECT_TRUE(testing::bitwise_equal(run.backend.download(), run.state));
}

}  // namespace
}  // namespace coalesce
