// The CUDA backend's slices (Backend::step_range) and source exchange, as ranks use them: K backends stepping
// random slices give one whole step's state bit for bit in every layout, precision and solver. The all-pairs
// sum of a body is its segments' partials in order, segments set by N alone (kernels/forces_all_pairs.cu).
#include <gtest/gtest.h>

#include "kernels/cuda_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/slice_step.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

TEST(CudaSlices, RandomSlicesStepLikeTheWholeStateBitwise) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const testing::BackendMaker make = [](int n, Layout layout, Precision precision) {
    return std::make_unique<CudaBackend>(n, layout, 0, precision);
  };
  for (Layout layout : kAllLayouts) {
    for (Precision precision : kAllPrecisions) {
      for (ForceMethod method : {ForceMethod::OneSidedAllPairs, ForceMethod::Attractors, ForceMethod::Tree}) {
        // Sizes past several j segments (1,024 sources each up to N ~ 5,000) and chunk edges.
        const int n = rng.uniform_int(1, testing::size_or_quick(9000, 3000));
        const testing::MethodParams step = method_info(method).physics == Physics::PairGravity
                                               ? testing::random_all_pairs_step(rng)
                                               : testing::random_attractor_step(rng);
        testing::expect_slices_step_like_whole(
            make, testing::random_particles_wide(rng, n), layout, precision, step.method, step.params,
            testing::random_cuts(rng, n, rng.uniform_int(1, 4)), 2, "seed " + std::to_string(rng.seed()));
      }
    }
  }
}

TEST(CudaSlices, MutualRefusesASlice) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = rng.uniform_int(10, 2000);
  CudaBackend backend(n, Layout::Float4);
  testing::expect_mutual_refuses_a_slice(backend, testing::random_particles(rng, n));
}

}  // namespace
}  // namespace coalesce
