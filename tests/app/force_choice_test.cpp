// --forces (app/services/force_choice.h, sim/auto_choice.h) on the CPU backend: auto measures on the run's
// own state and puts it back bit for bit, says what it measured where, and leaves the backend on its choice;
// a named row or the attractors solver measures nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/services/force_choice.h"
#include "sim/cpu_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

bool names(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ForceChoice, AutoPutsTheStateBackBitwiseAndSaysWhatItMeasuredWhere) {
  TestRng rng;
  const int n = rng.uniform_int(40, 400);
  for (Precision precision : kAllPrecisions) {
    const Layout layout = random_layout(rng);
    SCOPED_TRACE("N=" + std::to_string(n) + " " + std::string(to_string(precision)) + " " +
                 std::string(to_string(layout)));
    CpuBackend cpu(n, layout, 2, precision);
    cpu.upload(random_particles_wide(rng, n));
    const std::vector<ParticleF64> before = cpu.download_f64();
    const MethodParams step = random_all_pairs_step(rng);
    const ForceChoice choice = choose_forces(cpu, step.method, step.params, 0.0, std::nullopt);
    EXPECT_TRUE(bitwise_equal(cpu.download_f64(), before)) << "the measurement's steps were left in the state";
    EXPECT_EQ(cpu.force_method(), choice.method) << "the backend steps with what auto chose";
    EXPECT_TRUE(same_family(choice.method, ForceMethod::OneSidedAllPairs) &&
                method_info(choice.method).exact);
    EXPECT_TRUE(names(choice.account,
                      "forces " + std::string(method_info(choice.method).forces_name) + " (auto: one-sided "))
        << choice.account;
    EXPECT_TRUE(names(choice.account, "interactions/s measured at N = " + std::to_string(n) + ", " +
                                          std::string(to_string(precision)) + " " + std::string(to_string(layout))))
        << choice.account;
    EXPECT_FALSE(names(choice.account, "one-sided 0 ")) << "a rate of 0: no timing was measured: " << choice.account;
  }
}

TEST(ForceChoice, ANamedRowIsTakenWithoutAStep) {
  TestRng rng;
  const int n = rng.uniform_int(2, 300);
  CpuBackend cpu(n, random_layout(rng), 2);
  cpu.upload(random_particles(rng, n));
  const std::vector<Particle> before = cpu.download();
  for (ForceMethod row : {ForceMethod::OneSidedAllPairs, ForceMethod::MutualAllPairs}) {
    const MethodParams step = random_all_pairs_step(rng);
    const ForceChoice choice = choose_forces(cpu, step.method, step.params, 0.0, row);
    EXPECT_EQ(choice.method, row);
    EXPECT_EQ(cpu.force_method(), row);
    EXPECT_EQ(choice.account, "forces " + std::string(method_info(row).forces_name));
  }
  EXPECT_TRUE(bitwise_equal(cpu.download(), before));
  EXPECT_TRUE(cpu.poll_timings().empty()) << "a named row ran a step";
}

TEST(ForceChoice, AttractorsHaveNoSchemeAndSayNothing) {
  TestRng rng;
  const int n = rng.uniform_int(2, 300);
  CpuBackend cpu(n, random_layout(rng), 2);
  cpu.upload(random_particles(rng, n));
  const MethodParams step = random_attractor_step(rng);
  const ForceChoice choice = choose_forces(cpu, step.method, step.params, 0.0, std::nullopt);
  EXPECT_EQ(choice.method, ForceMethod::Attractors);
  EXPECT_EQ(cpu.force_method(), ForceMethod::Attractors);
  EXPECT_TRUE(choice.account.empty()) << choice.account;
  EXPECT_TRUE(cpu.poll_timings().empty()) << "auto measured for attractors";
}

}  // namespace
}  // namespace coalesce::testing
