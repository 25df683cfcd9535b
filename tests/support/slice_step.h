// Ranks simulated in one process: K backends of one kind each step their slice (Backend::step_range) and
// exchange sources as app/ranks/rank_stepper.cpp does, against one backend stepping the whole state. The
// check every backend's slice path gets (tests/sim and tests/kernels): the same bits.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/backend.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {

using BackendMaker = std::function<std::unique_ptr<Backend>(int n, Layout layout, Precision precision)>;

// Random cut points of [0, n) into `ranks` slices, any of them possibly empty, in order.
inline std::vector<int> random_cuts(TestRng& rng, int n, int ranks) {
  std::vector<int> cuts{0};
  for (int r = 1; r < ranks; ++r) cuts.push_back(rng.uniform_int(cuts.back(), n));
  cuts.push_back(n);
  return cuts;
}

// `steps` steps of `state` under `method`, whole and over `cuts`; expects the ranks' gathered state bitwise
// equal.
inline void expect_slices_step_like_whole(const BackendMaker& make, const std::vector<ParticleF64>& state,
                                          Layout layout, Precision precision, ForceMethod method,
                                          const SimParams& params, const std::vector<int>& cuts, int steps,
                                          const std::string& what) {
  const int n = static_cast<int>(state.size());
  auto whole = make(n, layout, precision);
  whole->upload(state);
  whole->set_force_method(method);
  std::vector<std::unique_ptr<Backend>> ranks;
  for (std::size_t r = 0; r + 1 < cuts.size(); ++r) {
    ranks.push_back(make(n, layout, precision));
    ranks.back()->upload(state);
    ranks.back()->set_force_method(method);
  }
  auto exchange = ranks.front()->rank_exchange().make_exchange_buffer();
  for (int s = 0; s < steps; ++s) {
    const double time = s * static_cast<double>(params.dt);
    whole->step(params, time);
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      ranks[r]->step_range(params, time, cuts[r], cuts[r + 1]);
      ranks[r]->rank_exchange().export_sources(cuts[r], cuts[r + 1], *exchange);
    }
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      ranks[r]->rank_exchange().import_sources(0, cuts[r], *exchange);
      ranks[r]->rank_exchange().import_sources(cuts[r + 1], n, *exchange);
    }
  }
  std::vector<ParticleF64> gathered(state.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const std::vector<ParticleF64> mine = ranks[r]->download_f64();
    for (int i = cuts[r]; i < cuts[r + 1]; ++i) gathered[static_cast<std::size_t>(i)] = mine[static_cast<std::size_t>(i)];
  }
  std::string cut_text;
  for (int c : cuts) cut_text += " " + std::to_string(c);
  EXPECT_TRUE(bitwise_equal(gathered, whole->download_f64()))
      << what << " " << to_string(layout) << " " << to_string(precision) << " " << method_info(method).name
      << " N=" << n << " cuts" << cut_text;
}

// A backend holding `particles` refuses a slice under the mutual scheme (its pairs span slices) and steps the
// whole state under it.
inline void expect_mutual_refuses_a_slice(Backend& backend, const std::vector<Particle>& particles) {
  const int n = static_cast<int>(particles.size());
  backend.upload(particles);
  const SimParams params;
  backend.set_force_method(ForceMethod::MutualAllPairs);
  EXPECT_THROW(backend.step_range(params, 0.0, 0, n / 2), std::invalid_argument);
  EXPECT_NO_THROW(backend.step_range(params, 0.0, 0, n));
}

}  // namespace coalesce::testing
