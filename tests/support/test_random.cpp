// Seeded randomness for tests, with the seed reported on failure.
#include "tests/support/test_random.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>

namespace coalesce::testing {

std::uint64_t run_seed() {
  static const std::uint64_t seed = [] {
    if (const char* env = std::getenv("COALESCE_TEST_SEED")) return static_cast<std::uint64_t>(std::strtoull(env, nullptr, 10));
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ static_cast<std::uint64_t>(device());
  }();
  return seed;
}

namespace {
std::uint64_t seed_for_current_test() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = info ? std::string(info->test_suite_name()) + "." + info->name() : "";
  return run_seed() ^ std::hash<std::string>{}(name);
}
}  // namespace

TestRng::TestRng() : m_seed(seed_for_current_test()), m_engine(m_seed) {
  ::testing::Test::RecordProperty("seed", std::to_string(run_seed()));
  // Attached to every assertion failure in the calling test from here on.
  static thread_local std::unique_ptr<::testing::ScopedTrace> trace;
  trace = std::make_unique<::testing::ScopedTrace>(
      __FILE__, __LINE__, "random inputs: rerun with COALESCE_TEST_SEED=" + std::to_string(run_seed()));
}

float TestRng::uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(m_engine); }
int TestRng::uniform_int(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(m_engine); }

std::vector<Particle> random_particles(TestRng& rng, int n) {
  std::vector<Particle> out(static_cast<std::size_t>(n));
  const float max_mass = 1.0f / static_cast<float>(n > 0 ? n : 1);
  for (Particle& p : out) {
    p = {rng.uniform(-1, 1),  rng.uniform(-1, 1),  rng.uniform(-1, 1), rng.uniform(-0.5f, 0.5f),
         rng.uniform(-0.5f, 0.5f), rng.uniform(-0.5f, 0.5f), rng.uniform(0.01f * max_mass, max_mass)};
  }
  return out;
}

std::vector<ParticleF64> random_particles_f64(TestRng& rng, int n, double inexact_share, std::size_t& inexact) {
  std::vector<ParticleF64> out(static_cast<std::size_t>(n));
  std::uniform_int_distribution<std::uint32_t> mantissa(0, (1u << 23) - 1);
  std::uniform_int_distribution<std::uint64_t> low_bits(1, (std::uint64_t{1} << 29) - 1);  // below float's 23
  std::bernoulli_distribution make_inexact(inexact_share);
  inexact = 0;
  for (ParticleF64& p : out) {
    double* fields = &p.x;
    for (int k = 0; k < kFieldsPerParticle; ++k) {
      const bool mass = k == kFieldsPerParticle - 1;
      std::uint32_t bits = static_cast<std::uint32_t>(127 + rng.uniform_int(-20, 20)) << 23 | mantissa(rng.engine());
      if (!mass && rng.uniform_int(0, 1)) bits |= 0x80000000u;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      double d = f;
      if (make_inexact(rng.engine())) {
        std::uint64_t wide;
        std::memcpy(&wide, &d, sizeof d);
        wide |= low_bits(rng.engine());
        std::memcpy(&d, &wide, sizeof d);
        ++inexact;
      }
      fields[k] = d;
    }
  }
  return out;
}

std::vector<ParticleF64> random_particles_wide(TestRng& rng, int n) {
  const std::vector<Particle> narrow = random_particles(rng, n);
  std::vector<ParticleF64> out(narrow.size());
  std::uniform_real_distribution<double> low(0x1p-27, 0x1p-25);  // relative: below float's 2^-24 spacing
  for (std::size_t i = 0; i < narrow.size(); ++i) {
    out[i] = record_cast<double>(narrow[i]);
    double* fields = &out[i].x;
    for (int f = 0; f < kFieldsPerParticle; ++f) fields[f] += fields[f] * low(rng.engine());
  }
  return out;
}

namespace {
template <class Real>
double relative_error_of(const std::vector<ParticleRecord<Real>>& a, const std::vector<ParticleRecord<Real>>& b) {
  if (a.size() != b.size()) return INFINITY;
  double diff = 0, ref = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Real* pa = &a[i].x;
    const Real* pb = &b[i].x;
    for (int f = 0; f < kFieldsPerParticle; ++f) {
      const double d = static_cast<double>(pa[f]) - pb[f];
      diff += d * d;
      ref += static_cast<double>(pb[f]) * pb[f];
    }
  }
  if (std::isnan(diff)) return INFINITY;
  return ref > 0 ? std::sqrt(diff / ref) : std::sqrt(diff);
}

}  // namespace

double relative_error(const std::vector<Particle>& a, const std::vector<Particle>& b) {
  return relative_error_of(a, b);
}
double relative_error(const std::vector<ParticleF64>& a, const std::vector<ParticleF64>& b) {
  return relative_error_of(a, b);
}

bool bitwise_equal(const std::vector<Particle>& a, const std::vector<Particle>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Particle)) == 0;
}

bool bitwise_equal(const std::vector<ParticleF64>& a, const std::vector<ParticleF64>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(ParticleF64)) == 0;
}

}  // namespace coalesce::testing
