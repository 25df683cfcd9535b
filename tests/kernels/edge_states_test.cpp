// The CUDA kernels at the edges of the accepted input range, against the CPU's scalar loop (the reference):
// two bodies so far apart that |d|^2 overflows (fp32 beyond 1.8e19, fp64 beyond 1.3e154, where the fp64
// refinement once computed inf x 0), and states of every magnitude, mass and softening, in both all-pairs
// schemes and the attractors solver, every layout, both precisions.
//
// Bound: tests/support/step_bound.h with 20 ulps per term (the GPU's rsqrtf is within 2^-22.9, r^2 is three
// FMAs and the products fuse: about 12 eps from exact, the CPU's about 6) and, in fp32, an underflow unit of
// the smallest normal float: the forces kernels are built with -ftz=true (kernels/CMakeLists.txt), so a
// subnormal input or product reads as 0. fp64 has gradual underflow on the GPU as on the CPU.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/cuda_backend.h"
#include "sim/cpu_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/edge_states.h"
#include "tests/support/step_bound.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

template <class Real>
constexpr Precision kPrecisionOf = sizeof(Real) == sizeof(float) ? Precision::Fp32 : Precision::Fp64;

template <class Real>
constexpr long double kUnderflowUnit = sizeof(Real) == sizeof(float)
                                           ? static_cast<long double>(FLT_MIN)
                                           : testing::gradual_underflow_unit<double>();

template <class Real>
std::vector<ParticleF64> gpu_step(const std::vector<ParticleRecord<Real>>& state, Layout layout,
                                  const testing::MethodParams& step) {
  CudaBackend gpu(static_cast<int>(state.size()), layout, 0, kPrecisionOf<Real>);
  gpu.upload(state);
  gpu.set_force_method(step.method);
  gpu.step(step.params, 0.0);
  return gpu.download_f64();
}

// One step on the GPU in every layout against the CPU's scalar one-sided loop, velocity by velocity.
template <class Real>
void expect_within_bound_of_the_scalar_loop(const std::vector<ParticleRecord<Real>>& state,
                                            const testing::MethodParams& step, const std::string& what) {
  const SimParams& params = step.params;
  const int n = static_cast<int>(state.size());
  CpuBackend cpu(n, Layout::AoS, 2, kPrecisionOf<Real>, CpuTarget::Scalar);
  cpu.upload(state);
  // The one-sided loop is the reference of both all-pairs methods.
  cpu.set_force_method(step.method == ForceMethod::MutualAllPairs ? ForceMethod::OneSidedAllPairs
                                                                  : step.method);
  cpu.step(params, 0.0);
  const std::vector<ParticleF64> reference = cpu.download_f64();
  std::vector<std::array<long double, 4>> sources = testing::sources_of(state);
  if (method_info(step.method).physics == Physics::Attractors) {
    const auto snapshot = snapshot_attractors(params.attractors, Real(0));
    sources.clear();
    for (int k = 0; k < snapshot.count; ++k)
      sources.push_back(
          {snapshot.position[k].x, snapshot.position[k].y, snapshot.position[k].z, snapshot.mass[k]});
  }
  const long double eps2 = softening_squared<Real>(params), dt = time_step<Real>(params);
  for (Layout layout : kAllLayouts) {
    const std::string where = what + " " + std::string(to_string(kPrecisionOf<Real>)) + " " +
                              std::string(method_info(step.method).name) + " " +
                              std::string(to_string(layout)) + " n=" + std::to_string(n);
    const std::vector<ParticleF64> got = gpu_step(state, layout, step);
    int bad = 0;
    for (std::size_t i = 0; i < state.size(); ++i) {
      const ParticleF64& a = got[i];
      const ParticleF64& b = reference[i];
      const long double target[3] = {state[i].x, state[i].y, state[i].z}, v[3] = {b.vx, b.vy, b.vz};
      const long double bound =
          testing::velocity_bound<Real>(target, v, sources, eps2, dt, 20, kUnderflowUnit<Real>);
      for (const auto& [x, y] : {std::pair{a.vx, b.vx}, std::pair{a.vy, b.vy}, std::pair{a.vz, b.vz}})
        if (!(std::fabs(static_cast<long double>(x) - y) <= bound) && ++bad <= 3)  // NaN fails too
          ADD_FAILURE() << where << " body " << i << ": " << x << " vs " << y << ", bound "
                        << static_cast<double>(bound);
    }
  }
}

template <class Real>
testing::MethodParams edge_params(TestRng& rng, ForceMethod method) {
  SimParams params;
  params.softening = testing::log_uniform(rng, -6, 3);
  params.dt = testing::log_uniform(rng, -9, 3);
  return {method, params};
}

template <class Real>
void check_far_pairs_and_edge_states(TestRng& rng) {
  for (ForceMethod method : {ForceMethod::OneSidedAllPairs, ForceMethod::MutualAllPairs}) {
    expect_within_bound_of_the_scalar_loop(testing::far_pair<Real>(rng), edge_params<Real>(rng, method),
                                           "far pair");
    expect_within_bound_of_the_scalar_loop(testing::edge_state<Real>(rng, rng.uniform_int(1, 300)),
                                           edge_params<Real>(rng, method), "edge state");
  }
  testing::MethodParams attractors = testing::random_attractor_step(rng);
  const SimParams edges = edge_params<Real>(rng, ForceMethod::OneSidedAllPairs).params;
  attractors.params.softening = edges.softening;
  attractors.params.dt = edges.dt;
  for (int k = 0; k < attractors.params.attractors.count; ++k)
    attractors.params.attractors.items[k].mass = testing::log_uniform(rng, -3, 12);
  expect_within_bound_of_the_scalar_loop(testing::edge_state<Real>(rng, rng.uniform_int(1, 300)), attractors,
                                         "edge state");
}

TEST(CudaEdgeStates, Fp32StepsStayWithinTheBoundOfTheCpuScalarLoop) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int round = 0; round < 5; ++round) check_far_pairs_and_edge_states<float>(rng);
}

TEST(CudaEdgeStates, Fp64StepsStayWithinTheBoundOfTheCpuScalarLoop) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int round = 0; round < 5; ++round) check_far_pairs_and_edge_states<double>(rng);
}

}  // namespace
}  // namespace coalesce
