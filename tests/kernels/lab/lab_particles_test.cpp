// AoS, SoA and float4 particle updates against a host reference; untouched fields must stay bit-exact.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/lab/lab_kernels.h"
#include "tests/kernels/lab/lab_test_util.h"

namespace coalesce::lab {
namespace {

using testing::TestRng;

// x' = x + v*dt may be fused on the device: allow a couple of roundings in the record's precision.
template <class Real>
void expect_near(Real got, double want, const char* what, std::size_t i) {
  const double tol = sizeof(Real) == 4 ? 1e-6 : 1e-12;
  EXPECT_NEAR(got, want, tol * (1.0 + std::fabs(want))) << what << " of particle " << i;
}

// The host reference in double; for fp64 records, want - x is then a rounding of the device's own sum.
template <class Real>
void expect_updated(const std::vector<ParticleRecord<Real>>& in, const std::vector<ParticleRecord<Real>>& out,
                    Real dt, bool all, const char* layout) {
  ASSERT_EQ(in.size(), out.size()) << layout;
  for (std::size_t i = 0; i < in.size(); ++i) {
    SCOPED_TRACE(layout);
    expect_near(out[i].x, double(in[i].x) + double(in[i].vx) * dt, "x", i);
    if (all) {
      expect_near(out[i].y, double(in[i].y) + double(in[i].vy) * dt, "y", i);
      expect_near(out[i].z, double(in[i].z) + double(in[i].vz) * dt, "z", i);
    } else {
      EXPECT_EQ(out[i].y, in[i].y) << "y of particle " << i;
      EXPECT_EQ(out[i].z, in[i].z) << "z of particle " << i;
    }
    EXPECT_EQ(out[i].vx, in[i].vx);
    EXPECT_EQ(out[i].vy, in[i].vy);
    EXPECT_EQ(out[i].vz, in[i].vz);
    EXPECT_EQ(out[i].mass, in[i].mass);
    if (::testing::Test::HasFailure()) return;  // one particle's report is enough
  }
}

TEST(LabParticles, AosAndSoaUpdatesMatchTheHost) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const std::vector<Particle> p = testing::random_particles(rng, rng.uniform_int(1000, 50000));
  const float dt = rng.uniform(1e-4f, 1e-2f);
  for (ParticleUpdate u : {ParticleUpdate::SingleField, ParticleUpdate::AllFields}) {
    const bool all = u == ParticleUpdate::AllFields;
    expect_updated(p, run_aos_update(p, dt, u), dt, all, "AoS");
    expect_updated(p, run_soa_update(p, dt, u), dt, all, "SoA");
  }
}

TEST(LabParticles, Float4UpdateMatchesTheHostAndKeepsMass) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const std::vector<Particle> p = testing::random_particles(rng, rng.uniform_int(1000, 50000));
  const float dt = rng.uniform(1e-4f, 1e-2f);
  expect_updated(p, run_float4_update(p, dt), dt, true, "float4");
}

// lab --precision fp64: the same updates on 56-byte double records, double SoA arrays and double4_32a vectors,
// with values no float holds.
TEST(LabParticles, Fp64UpdatesMatchTheHost) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const std::vector<ParticleF64> p = testing::random_particles_wide(rng, rng.uniform_int(1000, 50000));
  const double dt = rng.uniform(1e-4f, 1e-2f);
  for (ParticleUpdate u : {ParticleUpdate::SingleField, ParticleUpdate::AllFields}) {
    const bool all = u == ParticleUpdate::AllFields;
    expect_updated(p, run_aos_update(p, dt, u), dt, all, "AoS fp64");
    expect_updated(p, run_soa_update(p, dt, u), dt, all, "SoA fp64");
  }
  expect_updated(p, run_double4_update(p, dt), dt, true, "double4_32a");
}

}  // namespace
}  // namespace coalesce::lab
