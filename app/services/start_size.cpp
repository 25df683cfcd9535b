// The viewer's measured start size (see start_size.h).
#include "app/services/start_size.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace coalesce {
namespace {

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms < 10 ? "%.2f ms" : "%.1f ms", ms);
  return text;
}

}  // namespace

double step_budget_ms(const SizeRule& rule) {
  return 1000.0 / rule.frames_per_second * rule.step_share;
}

SizeChoice choose_start_size(const std::vector<SizeTrial>& given, const SizeRule& rule) {
  std::vector<SizeTrial> trials = given;
  std::sort(trials.begin(), trials.end(), [](const SizeTrial& a, const SizeTrial& b) { return a.particles < b.particles; });
  const double budget = step_budget_ms(rule);
  const std::string target = std::to_string(static_cast<int>(rule.frames_per_second)) + " FPS";
  const std::string budget_text = milliseconds(budget) + " (" + std::to_string(static_cast<int>(100 * rule.step_share)) +
                                  "% of a " + target + " frame)";
  if (trials.empty()) return {std::min(rule.granularity, rule.max_particles), "nothing measured"};
  const SizeTrial* fit = nullptr;
  const SizeTrial* over = nullptr;
  for (const SizeTrial& t : trials) {
    if (t.step_ms <= budget && t.particles <= rule.max_particles) fit = &t;
    if (t.step_ms > budget && !over) over = &t;
  }
  if (!fit)
    return {trials.front().particles, "even " + std::to_string(trials.front().particles) + " particles step in " +
                                          milliseconds(trials.front().step_ms) + ", over the budget of " + budget_text};
  // A step grows as N^exponent: the N the budget allows, from the largest measurement inside it.
  const double room = fit->step_ms > 0 ? budget / fit->step_ms : 1e9;
  double allowed = fit->particles * std::pow(room, 1.0 / rule.exponent);
  if (over) allowed = std::min(allowed, static_cast<double>(over->particles));
  allowed = std::min(allowed, static_cast<double>(rule.max_particles));
  const int granularity = std::max(1, rule.granularity);
  int n = static_cast<int>(std::floor(allowed / granularity)) * granularity;
  n = std::max(n, fit->particles);
  // Counts in plain digits: the panel wraps its lines at commas, which split "65,536" in two.
  std::string reason = "step " + milliseconds(fit->step_ms) + " measured at " + std::to_string(fit->particles) +
                       ", grown as N" + (rule.exponent == 2 ? "\xc2\xb2" : "") + " to the step budget of " +
                       budget_text;
  if (n == rule.max_particles && allowed >= rule.max_particles) reason += ", capped at " + std::to_string(rule.max_particles);
  return {n, reason};
}

std::vector<SizeTrial> measure_doubling(int first, const SizeRule& rule, const std::function<double(int)>& measure,
                                        int max_trials) {
  std::vector<SizeTrial> trials;
  const double budget = step_budget_ms(rule);
  for (long long n = std::max(1, first); n <= rule.max_particles && static_cast<int>(trials.size()) < max_trials;
       n *= 2) {
    trials.push_back({static_cast<int>(n), measure(static_cast<int>(n))});
    if (trials.back().step_ms > budget) break;
  }
  return trials;
}

bool chooses_start_size(const Options& options) {
  return !options.particles && options.load_state.empty() && is_preset(options.scene);
}

SizeRule start_size_rule(const Scene& scene, bool gpu) {
  SizeRule rule;
  rule.frames_per_second = gpu ? 60.0 : 30.0;
  rule.exponent = scene.params.solver == Solver::AllPairs ? 2 : 1;
  return rule;
}

}  // namespace coalesce
