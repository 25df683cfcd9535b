// The usable CPUs (sim/usable_cpus.h): the quota parsers on random texts, the cgroup walk over random trees
// written to a temporary folder, and the rule that turns affinity and quota into a thread count.
#include <gtest/gtest.h>

#include <sched.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sim/usable_cpus.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

std::string random_name(testing::TestRng& rng) {
  std::string name;
  for (int i = rng.uniform_int(1, 12); i > 0; --i)
    name += "abcdefghijklmnopqrstuvwxyz0123456789-_."[rng.uniform_int(0, 38)];
  return name == "." || name == ".." ? name + "x" : name;
}

TEST(UsableCpus, CpuMaxIsQuotaOverPeriodAndMaxIsNone) {
  testing::TestRng rng;
  for (int trial = 0; trial < 200; ++trial) {
    const int quota = rng.uniform_int(1000, 50000000), period = rng.uniform_int(1000, 1000000);
    const std::string q = std::to_string(quota), p = std::to_string(period);
    SCOPED_TRACE(q + " " + p);
    const auto cpus = parse_cpu_max(q + " " + p + (rng.uniform_int(0, 1) ? "\n" : ""));
    ASSERT_TRUE(cpus);
    EXPECT_DOUBLE_EQ(*cpus, static_cast<double>(quota) / period);
    EXPECT_DOUBLE_EQ(*parse_cpu_max(q), quota / 100000.0);  // the period defaults to 100 ms
    EXPECT_FALSE(parse_cpu_max("max " + p));
    EXPECT_FALSE(parse_cpu_max("max"));
    for (const std::string& bad : {std::string(), "-" + q + " " + p, q + " " + p + " 7", q + ".5 " + p,
                                   q + " x", "0 " + p, q + " 0", std::string(30, '9') + " " + p})
      EXPECT_FALSE(parse_cpu_max(bad)) << "'" << bad << "'";
  }
}

TEST(UsableCpus, CfsQuotaIsQuotaOverPeriodAndMinusOneIsNone) {
  testing::TestRng rng;
  for (int trial = 0; trial < 200; ++trial) {
    const int quota = rng.uniform_int(1000, 50000000), period = rng.uniform_int(1000, 1000000);
    const std::string q = std::to_string(quota), p = std::to_string(period);
    SCOPED_TRACE(q + " " + p);
    ASSERT_TRUE(parse_cfs_quota(q + "\n", p + "\n"));
    EXPECT_DOUBLE_EQ(*parse_cfs_quota(q + "\n", p + "\n"), static_cast<double>(quota) / period);
    EXPECT_FALSE(parse_cfs_quota("-1\n", p + "\n"));
    EXPECT_FALSE(parse_cfs_quota(q, "0"));
    EXPECT_FALSE(parse_cfs_quota(q + " " + q, p));
    EXPECT_FALSE(parse_cfs_quota("", p));
  }
}

TEST(UsableCpus, ThreadsAreTheQuotaRoundedUpWithinTheAffinity) {
  testing::TestRng rng;
  for (int trial = 0; trial < 500; ++trial) {
    const int affinity = rng.uniform_int(1, 512);
    const double quota = rng.uniform(0.01f, 600.0f);
    SCOPED_TRACE(std::to_string(affinity) + " CPUs, quota " + std::to_string(quota));
    const int threads = usable_cpu_count(affinity, quota);
    EXPECT_GE(threads, 1);
    EXPECT_LE(threads, affinity);
    if (quota < affinity) {
      EXPECT_GE(threads, quota);  // the quota's whole CPUs and its fraction each get a thread...
      EXPECT_LT(threads - 1, std::max(quota, 1.0));  // ...and no more
    } else {
      EXPECT_EQ(threads, affinity);
    }
    EXPECT_EQ(usable_cpu_count(affinity, std::nullopt), affinity);
  }
  EXPECT_EQ(usable_cpu_count(0, std::nullopt), 1);
}

// A random cgroup tree under a temporary folder, v2 and v1 side by side (a hybrid host) or either alone,
// each level with a quota or none, mounted at its root or inside a container (the mount's root a prefix
// of the process's path): the quota read is the tightest on the way up, from the file that holds it.
TEST(UsableCpus, TheTightestQuotaOnTheWayUpIsFound) {
  testing::TestRng rng;
  for (int trial = 0; trial < 40; ++trial) {
    testing::TempDir dir;
    const std::string root = dir.path().string();
    std::vector<std::string> parts;
    for (int i = rng.uniform_int(0, 4); i > 0; --i) parts.push_back(random_name(rng));
    // The container's view: the mount shows the process's cgroup from `hidden` levels down.
    const int hidden = rng.uniform_int(0, static_cast<int>(parts.size()));
    std::string mount_root = "/", path = "";
    for (int i = 0; i < static_cast<int>(parts.size()); ++i) {
      path += "/" + parts[static_cast<std::size_t>(i)];
      if (i < hidden) mount_root = path;
    }
    if (path.empty()) path = "/";
    const bool v2 = rng.uniform_int(0, 2) > 0, v1 = rng.uniform_int(0, 2) > 0;
    const std::string v2_point = "/sys/fs/cgroup" + std::string(v1 ? "/unified" : "");
    const std::string v1_point = "/sys/fs/cgroup/cpu,cpuacct";
    std::string proc_cgroup, mountinfo;
    if (v1) {
      proc_cgroup += "7:memory:/elsewhere\n3:cpu,cpuacct:" + path + "\n";
      mountinfo += "33 30 0:30 " + mount_root + " " + v1_point +
                   " rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n";
      mountinfo += "34 30 0:31 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
    }
    if (v2) {
      proc_cgroup += "0::" + path + "\n";
      mountinfo += "40 30 0:37 " + mount_root + " " + v2_point + " rw,nosuid - cgroup2 cgroup2 rw\n";
    }
    mountinfo += "22 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw\n";
    // The directories the process sees, innermost first: its own, then each parent to the mount point.
    std::vector<std::string> visible{""};
    for (int i = hidden; i < static_cast<int>(parts.size()); ++i)
      visible.push_back(visible.back() + "/" + parts[static_cast<std::size_t>(i)]);
    std::optional<double> expected;
    const auto expect = [&](std::optional<double> cpus) {
      if (cpus && (!expected || *cpus < *expected)) expected = cpus;
    };
    for (const std::string& sub : visible) {
      if (v2 && rng.uniform_int(0, 2) == 0) {
        const bool limited = rng.uniform_int(0, 1) == 1;
        const int quota = rng.uniform_int(10000, 3200000), period = rng.uniform_int(10000, 200000);
        write(root + v2_point + sub + "/cpu.max",
              (limited ? std::to_string(quota) : std::string("max")) + " " + std::to_string(period) + "\n");
        if (limited) expect(static_cast<double>(quota) / period);
      }
      if (v1 && rng.uniform_int(0, 2) == 0) {
        const bool limited = rng.uniform_int(0, 1) == 1;
        const int quota = rng.uniform_int(10000, 3200000), period = rng.uniform_int(10000, 200000);
        write(root + v1_point + sub + "/cpu.cfs_quota_us", (limited ? std::to_string(quota) : "-1") + "\n");
        write(root + v1_point + sub + "/cpu.cfs_period_us", std::to_string(period) + "\n");
        if (limited) expect(static_cast<double>(quota) / period);
      }
    }
    // A quota in a directory the process does not sit under changes nothing.
    write(root + v2_point + "/not-mine/cpu.max", "1000 100000\n");
    write(root + v1_point + "/not-mine/cpu.cfs_quota_us", "1000\n");
    write(root + v1_point + "/not-mine/cpu.cfs_period_us", "100000\n");
    SCOPED_TRACE("cgroup:\n" + proc_cgroup + "mountinfo:\n" + mountinfo);
    const CgroupDirectories d = cgroup_directories(proc_cgroup, mountinfo);
    EXPECT_EQ(d.unified.size(), v2 ? visible.size() : 0u);
    EXPECT_EQ(d.cpu.size(), v1 ? visible.size() : 0u);
    if (v2) EXPECT_EQ(d.unified.back(), v2_point);
    const std::optional<CpuQuota> quota = cgroup_cpu_quota(d, root);
    ASSERT_EQ(quota.has_value(), expected.has_value());
    if (!quota) continue;
    EXPECT_DOUBLE_EQ(quota->cpus, *expected);
    // The source names the file that holds the tightest quota, without the test's root.
    EXPECT_TRUE(std::filesystem::is_regular_file(root + quota->source)) << quota->source;
    if (quota->source.size() > 8 && quota->source.substr(quota->source.size() - 8) == "/cpu.max") {
      std::ifstream in(root + quota->source);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      EXPECT_EQ(parse_cpu_max(text), expected) << text;
    }
  }
}

TEST(UsableCpus, MissingHugeOrStrangeFilesMeanNoQuota) {
  testing::TestRng rng;
  testing::TempDir dir;
  const std::string root = dir.path().string();
  const CgroupDirectories d = cgroup_directories("0::/a\n", "40 30 0:37 / /cg rw - cgroup2 cgroup2 rw\n");
  ASSERT_EQ(d.unified.size(), 2u);
  EXPECT_FALSE(cgroup_cpu_quota(d, root));  // no file at all
  write(root + "/cg/a/cpu.max", std::string(static_cast<std::size_t>(rng.uniform_int(5000, 20000)), '1'));
  EXPECT_FALSE(cgroup_cpu_quota(d, root));  // past the bound: not read
  std::filesystem::remove(root + "/cg/a/cpu.max");
  std::filesystem::create_directories(root + "/cg/a/cpu.max");  // a directory where the file should be
  EXPECT_FALSE(cgroup_cpu_quota(d, root));
  // Lines that are not what they should be are skipped, never trusted.
  for (const std::string& cgroup : {std::string("garbage"), std::string("0::relative"), std::string("::/x"),
                                    std::string(":") + std::string(100, ':')})
    EXPECT_TRUE(cgroup_directories(cgroup, "40 30 0:37 / /cg rw - cgroup2 cgroup2 rw\n").unified.empty())
        << cgroup;
  EXPECT_TRUE(cgroup_directories("0::/a\n", "40 30 0:37 / /cg rw cgroup2 cgroup2 rw\n").unified.empty());
}

TEST(UsableCpus, ThisProcessCountsItsAffinity) {
  cpu_set_t set;
  CPU_ZERO(&set);
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  const UsableCpus u = usable_cpus();
  EXPECT_EQ(static_cast<int>(u.affinity.size()), CPU_COUNT(&set));
  EXPECT_EQ(u.count, usable_cpu_count(CPU_COUNT(&set), u.quota));
  EXPECT_NE(u.describe().find(std::to_string(u.count) + " of " + std::to_string(u.online)), std::string::npos)
      << u.describe();
}

}  // namespace
}  // namespace coalesce
