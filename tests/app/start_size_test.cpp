// The viewer's start-size rule (app/services/start_size.h) on the timings it is given: a synthetic machine
// whose step costs c * N^e (all-pairs e = 2, attractors e = 1), with random c, random noise and random rules.
#include <gtest/gtest.h>

#include <cmath>

#include "app/services/start_size.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

struct Machine {
  double cost = 0;  // ms per particle^exponent
  int exponent = 2;
  double at(int n) const { return cost * std::pow(static_cast<double>(n), exponent); }
};

SizeRule random_rule(TestRng& rng, int exponent) {
  SizeRule rule;
  rule.frames_per_second = rng.uniform_int(0, 1) ? 60.0 : 30.0;
  rule.step_share = rng.uniform(0.3f, 0.8f);
  rule.exponent = exponent;
  rule.granularity = 1 << rng.uniform_int(0, 10);
  rule.max_particles = 1 << rng.uniform_int(16, 26);
  return rule;
}

TEST(StartSize, TheChosenNFitsTheBudgetAndTheNextStepUpWouldNot) {
  TestRng rng;
  for (int round = 0; round < 200; ++round) {
    const int exponent = rng.uniform_int(1, 2);
    const SizeRule rule = random_rule(rng, exponent);
    // A machine whose budget is reached somewhere between 1e3 and 1e7 particles.
    const double fits = std::pow(10.0, rng.uniform(3.0f, 7.0f));
    const Machine machine{step_budget_ms(rule) / std::pow(fits, exponent), exponent};
    const std::vector<SizeTrial> trials =
        measure_doubling(256, rule, [&](int n) { return machine.at(n); });
    const SizeChoice choice = choose_start_size(trials, rule);
    SCOPED_TRACE("round " + std::to_string(round) + ": " + choice.reason);
    ASSERT_GT(choice.particles, 0);
    EXPECT_LE(choice.particles, rule.max_particles);
    if (machine.at(256) > step_budget_ms(rule)) {
      EXPECT_EQ(choice.particles, 256) << "nothing fits: the smallest measured size";
      EXPECT_NE(choice.reason.find("over the budget"), std::string::npos);
      continue;
    }
    EXPECT_LE(machine.at(choice.particles), step_budget_ms(rule) * (1 + 1e-9));
    const bool capped = choice.particles + rule.granularity > rule.max_particles;
    const bool on_a_trial = std::any_of(trials.begin(), trials.end(),
                                        [&](const SizeTrial& t) { return t.particles == choice.particles; });
    if (!capped && !on_a_trial) {
      EXPECT_EQ(choice.particles % rule.granularity, 0);
      EXPECT_GT(machine.at(choice.particles + rule.granularity), step_budget_ms(rule))
          << "a larger multiple of the granularity would still fit";
    }
  }
}

TEST(StartSize, NoisyTimingsNeverGoPastTheFirstSizeOverTheBudget) {
  TestRng rng;
  const SizeRule rule = random_rule(rng, 2);
  // The largest fitting trial reads fast by chance: growth must stop at the size measured over the budget.
  const double budget = step_budget_ms(rule);
  const std::vector<SizeTrial> trials = {{1024, budget * 0.01}, {2048, budget * 1.5}};
  const SizeChoice choice = choose_start_size(trials, rule);
  EXPECT_GE(choice.particles, 1024);
  EXPECT_LE(choice.particles, 2048);
}

TEST(StartSize, MeasuringStopsAtTheFirstSizeOverTheBudget) {
  TestRng rng;
  const SizeRule rule = random_rule(rng, 1);
  const int over = 256 << rng.uniform_int(0, 8);
  int calls = 0;
  const std::vector<SizeTrial> trials = measure_doubling(256, rule, [&](int n) {
    ++calls;
    return n >= over ? step_budget_ms(rule) * 2 : step_budget_ms(rule) / 4;
  });
  ASSERT_FALSE(trials.empty());
  EXPECT_EQ(trials.back().particles, std::min(over, trials.back().particles));
  EXPECT_EQ(calls, static_cast<int>(trials.size()));
  if (over <= rule.max_particles) EXPECT_EQ(trials.back().particles, over);
}

}  // namespace
}  // namespace coalesce::testing
