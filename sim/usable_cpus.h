// How many CPUs this process may use: the CPUs of its affinity mask (taskset, numactl, a batch job's
// cpuset), lowered by the cgroup CPU quota (a container's --cpus, systemd's CPUQuota=, Kubernetes limits).
// Every thread pool of the program is sized by usable_cpus(); the parsers are exposed for tests.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace coalesce {

struct UsableCpus {
  int count = 1;              // threads to run: min(affinity CPUs, ceil(quota)), at least 1
  std::vector<int> affinity;  // the CPU numbers sched_getaffinity allows, ascending
  int online = 1;             // CPUs the system has online (sysconf), for the message
  std::optional<double>
      quota;                 // CPUs the tightest cgroup quota allows (150000/100000 -> 1.5); none: no quota
  std::string quota_source;  // the file it came from ("/sys/fs/cgroup/cpu.max"), "" without a quota
  // "2 of 2 CPUs usable", "1 of 2 CPUs usable (affinity: 1)", "2 of 16 CPUs usable (cgroup quota 1.5 CPUs:
  // /sys/fs/cgroup/cpu.max)".
  std::string describe() const;
};

// This process's usable CPUs, read now (affinity can change while a process runs).
UsableCpus usable_cpus();

// A cgroup v2 cpu.max ("max 100000", "150000 100000"): the CPUs the quota allows; none for "max" or text
// that is not a quota.
std::optional<double> parse_cpu_max(const std::string& text);
// cgroup v1 cpu.cfs_quota_us and cpu.cfs_period_us: quota / period in CPUs; none for -1 or non-numbers.
std::optional<double> parse_cfs_quota(const std::string& quota_us, const std::string& period_us);

// Where this process's cgroups are, from /proc/self/cgroup and /proc/self/mountinfo: the directories that
// may hold cpu.max (v2) or cpu.cfs_quota_us (v1), from the process's own cgroup up to its mount's root.
struct CgroupDirectories {
  std::vector<std::string> unified;  // v2, innermost first
  std::vector<std::string> cpu;      // v1's cpu controller, innermost first
};
CgroupDirectories cgroup_directories(const std::string& proc_self_cgroup, const std::string& mountinfo);

// The tightest quota over those directories, reading the files under them with bounded reads (a root other
// than "" prefixes every path, so tests read a tree of their own); none when no directory has a quota.
struct CpuQuota {
  double cpus = 0;
  std::string source;
};
std::optional<CpuQuota> cgroup_cpu_quota(const CgroupDirectories& directories, const std::string& root = "");

// Threads for `affinity` CPUs under `quota`: the quota rounded up (1.5 CPUs run 2 threads), never more than
// the affinity allows, at least 1.
int usable_cpu_count(int affinity, std::optional<double> quota);

}  // namespace coalesce
