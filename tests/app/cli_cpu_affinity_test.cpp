// coalesce bench on the CPU under `taskset -c K` (the affinity a batch job or numactl gives), through the
// real executable: the run uses one thread, says so in its header and JSON, and its issue limit counts one
// core, so `% limit` is measured against what the run may use.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sched.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/usable_cpus.h"
#include "tests/app/run_process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using nlohmann::json;

// This thread's affinity set to `cpus` while alive: a child forked meanwhile inherits it, as from taskset.
class PinnedAffinity {
 public:
  explicit PinnedAffinity(const std::vector<int>& cpus) {
    CPU_ZERO(&m_saved);
    if (sched_getaffinity(0, sizeof m_saved, &m_saved) != 0) throw std::runtime_error("sched_getaffinity");
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int cpu : cpus) CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof set, &set) != 0) throw std::runtime_error("sched_setaffinity");
  }
  ~PinnedAffinity() { sched_setaffinity(0, sizeof m_saved, &m_saved); }
  PinnedAffinity(const PinnedAffinity&) = delete;
  PinnedAffinity& operator=(const PinnedAffinity&) = delete;

 private:
  cpu_set_t m_saved;
};

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  return cpus;
}

struct BenchRun {
  testing::ProcessResult process;
  json doc;
};

BenchRun bench(const testing::TempDir& dir, const std::string& name, int n, const std::string& layout) {
  const std::string out = dir.file(name + ".json");
  BenchRun run;
  run.process = testing::run_coalesce({"bench", "--backend", "cpu", "--solver", "all-pairs", "--forces",
                                       "one-sided", "--particles", std::to_string(n), "--layouts", layout,
                                       "--repeats", "1", "--json", out});
  if (run.process.exit_code == 0) run.doc = json::parse(testing::read_file(out));
  return run;
}

TEST(CliCpuAffinity, OneAllowedCpuRunsOneThreadAndCountsOneCore) {
  testing::TestRng rng;
  testing::TempDir dir;
  const std::vector<int> cpus = allowed_cpus();
  ASSERT_FALSE(cpus.empty());
  const int n = rng.uniform_int(64, 1024);
  const std::string layout(to_string(testing::random_layout(rng)));
  const BenchRun all = bench(dir, "all", n, layout);
  ASSERT_EQ(all.process.exit_code, 0) << all.process.err;
  const int cpu = cpus[static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(cpus.size()) - 1))];
  BenchRun one;
  {
    const PinnedAffinity pinned({cpu});
    one = bench(dir, "one", n, layout);
  }
  ASSERT_EQ(one.process.exit_code, 0) << one.process.err;
  SCOPED_TRACE("CPU " + std::to_string(cpu) + " of " + std::to_string(cpus.size()) + "\n" + one.process.out);

  const json& c1 = one.doc.at("device").at("cpu");
  const json& call = all.doc.at("device").at("cpu");
  EXPECT_EQ(c1.at("threads"), 1);
  EXPECT_EQ(c1.at("copy").at("threads"), 1);  // the ceiling is measured with the threads the kernels use
  EXPECT_EQ(one.doc.at("device").at("multiprocessors"), 1);
  EXPECT_EQ(call.at("threads").get<int>(), usable_cpus().count);  // unpinned: this process's usable CPUs
  EXPECT_EQ(c1.at("online_cpus"), call.at("online_cpus"));
  EXPECT_NE(one.doc.at("backend").get<std::string>().find("cpu (1 thread,"), std::string::npos)
      << one.doc.at("backend");
  EXPECT_NE(
      one.process.out.find("1 thread used (1 of " + std::to_string(c1.at("online_cpus").get<int>()) + " CPU"),
      std::string::npos);
  if (c1.at("online_cpus").get<int>() > 1) {
    EXPECT_NE(c1.at("threads_rule").get<std::string>().find("affinity: 1"), std::string::npos) << c1;
  }
  EXPECT_NE(one.process.out.find("1 core used x"), std::string::npos);
  // The issue limit of one CPU is the whole run's divided by the cores that run used, the clock measured
  // apart (each run measures its own: the limit is compared through its clock).
  for (const char* precision : {"fp32", "fp64"}) {
    const json& l1 = c1.at("force_loops").at(precision).at("issue_limit_interactions_per_second");
    const json& lall = call.at("force_loops").at(precision).at("issue_limit_interactions_per_second");
    if (l1.is_null() || lall.is_null() || c1.at("clock_mhz").is_null()) continue;
    const double cores_all = std::min(call.at("threads").get<double>(),
                                      call.at("cores").is_null() ? 1e9 : call.at("cores").get<double>());
    const double per_core_mhz_one = l1.get<double>() / c1.at("clock_mhz").get<double>();
    const double per_core_mhz_all = lall.get<double>() / call.at("clock_mhz").get<double>() / cores_all;
    EXPECT_NEAR(per_core_mhz_one, per_core_mhz_all, 1e-9 * per_core_mhz_all) << precision;
  }
  // The row's % of the limit is its rate over the one-core limit.
  for (const json& row : one.doc.at("rows")) {
    if (row.at("percent_of_issue_limit").is_null()) continue;
    const double limit = c1.at("force_loops")
                             .at(row.at("precision").get<std::string>())
                             .at("issue_limit_interactions_per_second");
    const double percent = 100.0 * row.at("interactions_per_second").get<double>() / limit;
    EXPECT_NEAR(row.at("percent_of_issue_limit").get<double>(), percent, 1e-9 * percent);
  }
}

}  // namespace
}  // namespace coalesce
