// The viewer's measured start size (see start_size.h).
#include "app/services/start_size.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/force_method.h"

namespace coalesce {
namespace {

std::string milliseconds(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, ms < 10 ? "%.2f ms" : "%.1f ms", ms);
  return text;
}

}  // namespace

double step_budget_ms(const SizeRule& rule) {
  return frame_budget_ms(rule) * rule.step_share;
}

double frame_budget_ms(const SizeRule& rule) {
  return 1000.0 / rule.frames_per_second;
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
  const std::string forces = fit->forces.empty() ? std::string() : " (" + fit->forces + ")";
  std::string reason = "step " + milliseconds(fit->step_ms) + forces + " measured at " +
                       std::to_string(fit->particles) + ", grown as N" +
                       (rule.exponent == 2 ? "\xc2\xb2" : "") + " to the step budget of " + budget_text;
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

FrameCheck check_start_frames(const std::vector<FrameTrial>& trials, const SizeRule& rule,
                              const std::string& rest_name, int max_trials) {
  if (trials.empty()) return {0, true, "no frame measured"};
  const FrameTrial& last = trials.back();
  const double budget = frame_budget_ms(rule);
  const double rest_ms = std::max(0.0, last.frame_ms - last.step_ms);
  const std::string target = std::to_string(static_cast<int>(rule.frames_per_second)) + " FPS";
  const std::string measured = "frame " + milliseconds(last.frame_ms) + " at " +
                               std::to_string(last.particles) + " (step " + milliseconds(last.step_ms) +
                               ", " + rest_name + " " + milliseconds(rest_ms) + ")";
  const std::string budget_text = milliseconds(budget) + " of a " + target + " frame";
  if (last.frame_ms <= budget) return {last.particles, true, measured + " within the " + budget_text};
  // The rest as a + b N: through the last two trials at different N, else all of it per particle.
  double a = 0.0, b = rest_ms / std::max(1, last.particles);
  for (auto it = trials.rbegin() + 1; it != trials.rend(); ++it) {
    if (it->particles == last.particles) continue;
    const double other = std::max(0.0, it->frame_ms - it->step_ms);
    b = std::max(0.0, (rest_ms - other) / (last.particles - it->particles));
    a = std::max(0.0, rest_ms - b * last.particles);
    break;
  }
  const auto step_at = [&](double n) {
    return last.step_ms * std::pow(n / std::max(1, last.particles), rule.exponent);
  };
  const int granularity = std::max(1, rule.granularity);
  // The largest multiple of the granularity below `below` whose modelled cost (the step, the rest's
  // N-dependent part, and its fixed part when asked) is within `limit`; the granularity when none is.
  const auto largest_within = [&](double limit, bool with_fixed, int below) {
    const auto cost = [&](long long k) {
      const double n = static_cast<double>(k * granularity);
      return step_at(n) + b * n + (with_fixed ? a : 0.0);
    };
    long long lo = 1, hi = std::max(1, (below - 1) / granularity);  // cost rises with k
    if (cost(lo) > limit) return granularity;
    while (lo < hi) {
      const long long mid = lo + (hi - lo + 1) / 2;
      if (cost(mid) <= limit)
        lo = mid;
      else
        hi = mid - 1;
    }
    return static_cast<int>(lo * granularity);
  };
  const std::string share = std::to_string(static_cast<int>(100 * rule.step_share)) + "%";
  if (a + step_at(granularity) + b * granularity > budget) {
    // What does not shrink with N is over the budget by itself: no N reaches the target rate, and a lower
    // N buys little. N is where the parts that grow with N take the step's share, never above the N the
    // step rule chose (the first trial's).
    const int first = trials.front().particles;
    const int n = std::min(first, largest_within(budget * rule.step_share, false, first + 1));
    return {n, true,
            measured + ", over the " + budget_text + "; " + rest_name + " cost " + milliseconds(a) +
                " at any N, so no N holds " + target + ": N = " + std::to_string(n) +
                ", where the step and the rest's share per particle take " + share + " of the frame"};
  }
  const int n = std::min(last.particles, largest_within(budget, true, last.particles));
  const bool settled = static_cast<int>(trials.size()) >= max_trials || n >= last.particles;
  const std::string limiter = last.step_ms >= rest_ms ? "the step" : rest_name;
  return {n, settled,
          measured + ", over the " + budget_text + "; " + limiter + " limited N: lowered to " +
              std::to_string(n)};
}

bool chooses_start_size(const Options& options) {
  return !options.particles && options.load_state.empty() && is_preset(options.scene);
}

SizeRule start_size_rule(const Scene& scene, bool gpu) {
  SizeRule rule;
  rule.frames_per_second = gpu ? 60.0 : 30.0;
  rule.exponent = method_info(scene.method).start_exponent;
  return rule;
}

}  // namespace coalesce
