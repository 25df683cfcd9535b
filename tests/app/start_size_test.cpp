// The viewer's start-size rule (app/services/start_size.h) on the timings it is given: a synthetic machine
// whose step costs c * N^e (all-pairs e = 2, attractors e = 1), with random c, random noise and random rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

// The frame check on a synthetic machine whose step costs c N^e and whose draw, upload and panel cost
// a + b N: from the N the step rule chose, the check lowers N until the whole frame fits, never above that
// first N, and once it has two trials (an exact line for the rest) lands on the largest fitting multiple
// of the granularity; when the rest's fixed part alone is over the budget it says so and settles.
TEST(StartSize, FrameCheckLowersNUntilTheWholeFrameFits) {
  TestRng rng;
  for (int round = 0; round < 300; ++round) {
    const int exponent = rng.uniform_int(1, 2);
    SizeRule rule = random_rule(rng, exponent);
    rule.max_particles = 1 << 26;
    const double budget = frame_budget_ms(rule);
    const double fits = std::pow(10.0, rng.uniform(3.5f, 6.5f));
    const Machine step{step_budget_ms(rule) / std::pow(fits, exponent), exponent};
    const double a =
        rng.uniform_int(0, 3) == 0 ? budget * rng.uniform(1.0f, 3.0f) : budget * rng.uniform(0.0f, 0.4f);
    const double b = budget * rng.uniform(0.0f, 3.0f) / fits;
    const auto rest = [&](int n) { return a + b * n; };
    const auto frame = [&](int n) { return step.at(n) + rest(n); };
    int n = choose_start_size(measure_doubling(256, rule, [&](int m) { return step.at(m); }), rule).particles;
    const int first = n;
    std::vector<FrameTrial> trials;
    FrameCheck check;
    SCOPED_TRACE("round " + std::to_string(round) + ": a " + std::to_string(a) + " ms, b " +
                 std::to_string(b) + " ms/particle, budget " + std::to_string(budget) + " ms, first N " +
                 std::to_string(first));
    for (int attempt = 0; attempt < 3; ++attempt) {
      trials.push_back({n, frame(n), step.at(n)});
      check = check_start_frames(trials, rule, "the draw");
      SCOPED_TRACE(check.reason);
      ASSERT_GT(check.particles, 0);
      EXPECT_LE(check.particles, first) << "never above the step rule's N";
      if (!check.settled) {
        EXPECT_LT(check.particles, n) << "a trial that goes on lowers N";
      }
      if (frame(n) <= budget) {
        EXPECT_TRUE(check.settled);
        EXPECT_EQ(check.particles, n);
        EXPECT_NE(check.reason.find("within"), std::string::npos);
      }
      // From two trials the rest's fixed part is known: a machine no N can serve is named as such.
      const bool hopeless = a + step.at(rule.granularity) + b * rule.granularity > budget;
      if (hopeless && frame(n) > budget && trials.size() >= 2) {
        EXPECT_TRUE(check.settled);
        EXPECT_NE(check.reason.find("at any N"), std::string::npos);
      }
      n = check.particles;
      if (check.settled) break;
    }
    if (frame(first) <= budget) continue;
    if (a + step.at(rule.granularity) + b * rule.granularity > budget) {
      EXPECT_TRUE(check.settled);
      EXPECT_NE(check.reason.find("at any N"), std::string::npos);
      continue;
    }
    // Two trials fit the rest exactly: the N chosen from them fits, and the next multiple up would not.
    if (trials.size() >= 2 && check.particles < first) {
      EXPECT_LE(frame(check.particles), budget * (1 + 1e-9));
      const int lowered_from = trials[trials.size() - 2].particles;  // the N the exact fit lowered
      if (check.particles + rule.granularity < lowered_from) {
        EXPECT_GT(frame(check.particles + rule.granularity), budget);
      }
    }
  }
}

TEST(StartSize, FrameCheckNamesWhatLimitedN) {
  TestRng rng;
  SizeRule rule = random_rule(rng, 2);
  const double budget = frame_budget_ms(rule);
  const int n = 1 << rng.uniform_int(12, 18);
  // The rest is most of the frame: the draw limited N.
  const FrameCheck draw =
      check_start_frames({{n, budget * 3, budget * 0.2}}, rule, "the draw and the copy path");
  EXPECT_NE(draw.reason.find("the draw and the copy path limited N"), std::string::npos) << draw.reason;
  EXPECT_LT(draw.particles, n);
  // The step is most of it: the step did.
  const FrameCheck stepped = check_start_frames({{n, budget * 1.5, budget * 1.2}}, rule, "the draw");
  EXPECT_NE(stepped.reason.find("the step limited N"), std::string::npos) << stepped.reason;
  EXPECT_TRUE(check_start_frames({}, rule, "the draw").settled);
}

}  // namespace
}  // namespace coalesce::testing
