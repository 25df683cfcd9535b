// The usable CPUs (see usable_cpus.h): sched_getaffinity, then the cgroup quotas on the way from this
// process's cgroup to its mount's root, v2 (cpu.max) and v1 (cpu.cfs_quota_us / cpu.cfs_period_us).
#include "sim/usable_cpus.h"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <sstream>

#include "sim/input_file.h"

namespace coalesce {

namespace {

// cgroup files are a line; /proc/self/cgroup a line per hierarchy; mountinfo a line per mount (a busy host
// has thousands): past these bounds a file is not what it should be, and no quota is read from it.
constexpr std::uint64_t kMaxCgroupFileBytes = 4096;
constexpr std::uint64_t kMaxProcCgroupBytes = 64 * 1024;
constexpr std::uint64_t kMaxMountinfoBytes = 4 * 1024 * 1024;
// Deeper than any real hierarchy: the walk up stops here whatever the paths say.
constexpr int kMaxCgroupDepth = 64;

// The text of a small system file, or none when it is missing, unreadable or over `max_bytes`.
std::optional<std::string> read_system_file(const std::string& path, std::uint64_t max_bytes) {
  try {
    return read_text_file("", path, max_bytes);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

// A whole decimal number (no sign, no fraction), or none.
std::optional<double> whole_number(const std::string& text) {
  if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stod(text);
}

std::string trimmed(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\n");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\n") - first + 1);
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

struct Mount {
  std::string root;   // the cgroup path the mount shows at its mount point
  std::string point;  // where it is mounted
};

// A cgroup path under a mount: its directory, then each parent up to the mount point.
std::vector<std::string> directories_up(const Mount& mount, const std::string& cgroup_path) {
  std::string relative;
  if (mount.root == "/")
    relative = cgroup_path;
  else if (cgroup_path.compare(0, mount.root.size(), mount.root) == 0)
    relative = cgroup_path.substr(mount.root.size());
  // Elsewhere (a cgroup outside the mount's view): only the mount point itself is known.
  std::vector<std::string> parts;
  for (const std::string& part : split(relative, '/'))
    if (!part.empty() && part != "." && part != "..") parts.push_back(part);
  if (parts.size() > static_cast<std::size_t>(kMaxCgroupDepth)) parts.resize(kMaxCgroupDepth);
  std::vector<std::string> out;
  for (std::size_t depth = parts.size() + 1; depth-- > 0;) {
    std::string dir = mount.point;
    for (std::size_t i = 0; i < depth; ++i) dir += "/" + parts[i];
    out.push_back(dir);
  }
  return out;
}

}  // namespace

std::optional<double> parse_cpu_max(const std::string& text) {
  const std::vector<std::string> w = words(text);
  if (w.empty() || w.size() > 2) return std::nullopt;
  const std::optional<double> quota = whole_number(w[0]);
  // The period defaults to 100 ms when the file gives the quota alone.
  const std::optional<double> period = w.size() == 2 ? whole_number(w[1]) : std::optional<double>(100000.0);
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;
  return *quota / *period;
}

std::optional<double> parse_cfs_quota(const std::string& quota_us, const std::string& period_us) {
  const std::optional<double> quota = whole_number(trimmed(quota_us));  // -1 (no quota) is no number here
  const std::optional<double> period = whole_number(trimmed(period_us));
  if (!quota || !period || *quota <= 0 || *period <= 0) return std::nullopt;
  return *quota / *period;
}

CgroupDirectories cgroup_directories(const std::string& proc_self_cgroup, const std::string& mountinfo) {
  std::optional<std::string> unified_path, cpu_path;
  for (const std::string& line : split(proc_self_cgroup, '\n')) {
    // hierarchy-ID:controller-list:cgroup-path; the path may itself hold ':'.
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? std::string::npos : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string id = line.substr(0, first);
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (path.empty() || path[0] != '/') continue;
    if (id == "0" && controllers.empty()) unified_path = path;
    if (contains(split(controllers, ','), "cpu")) cpu_path = path;
  }
  std::optional<Mount> unified_mount, cpu_mount;
  for (const std::string& line : split(mountinfo, '\n')) {
    // ID PARENT MAJOR:MINOR ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER-OPTIONS
    const std::vector<std::string> w = words(line);
    const auto dash = std::find(w.begin(), w.end(), "-");
    if (w.size() < 5 || dash == w.end() || w.end() - dash < 4) continue;
    const std::string& type = *(dash + 1);
    const Mount mount{w[3], w[4]};
    if (type == "cgroup2" && !unified_mount) unified_mount = mount;
    if (type == "cgroup" && !cpu_mount && contains(split(*(dash + 3), ','), "cpu")) cpu_mount = mount;
  }
  CgroupDirectories out;
  if (unified_path && unified_mount) out.unified = directories_up(*unified_mount, *unified_path);
  if (cpu_path && cpu_mount) out.cpu = directories_up(*cpu_mount, *cpu_path);
  return out;
}

std::optional<CpuQuota> cgroup_cpu_quota(const CgroupDirectories& d, const std::string& root) {
  std::optional<CpuQuota> tightest;
  const auto consider = [&](std::optional<double> cpus, const std::string& source) {
    if (cpus && (!tightest || *cpus < tightest->cpus)) tightest = CpuQuota{*cpus, source};
  };
  for (const std::string& dir : d.unified) {
    const std::string path = dir + "/cpu.max";
    if (const auto text = read_system_file(root + path, kMaxCgroupFileBytes))
      consider(parse_cpu_max(*text), path);
  }
  for (const std::string& dir : d.cpu) {
    const auto quota = read_system_file(root + dir + "/cpu.cfs_quota_us", kMaxCgroupFileBytes);
    const auto period = read_system_file(root + dir + "/cpu.cfs_period_us", kMaxCgroupFileBytes);
    if (quota && period) consider(parse_cfs_quota(*quota, *period), dir + "/cpu.cfs_quota_us");
  }
  return tightest;
}

int usable_cpu_count(int affinity, std::optional<double> quota) {
  int count = std::max(1, affinity);
  // A quota above the affinity (or absurdly large) changes nothing; a share of a CPU still runs one thread.
  if (quota && *quota > 0 && *quota < count) count = std::max(1, static_cast<int>(std::ceil(*quota)));
  return count;
}

std::string UsableCpus::describe() const {
  std::string out =
      std::to_string(count) + " of " + std::to_string(online) + (online == 1 ? " CPU" : " CPUs") + " usable";
  std::string why;
  if (static_cast<int>(affinity.size()) < online) why = "affinity: " + std::to_string(affinity.size());
  if (quota) {
    char text[160];
    std::snprintf(text, sizeof text, "cgroup quota %.3g CPUs: %s", *quota, quota_source.c_str());
    why += (why.empty() ? "" : "; ") + std::string(text);
  }
  return why.empty() ? out : out + " (" + why + ")";
}

UsableCpus usable_cpus() {
  UsableCpus u;
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  u.online = online > 0 ? static_cast<int>(online) : 1;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &set)) u.affinity.push_back(cpu);
  }
  if (u.affinity.empty())  // unreadable: every online CPU
    for (int cpu = 0; cpu < u.online; ++cpu) u.affinity.push_back(cpu);
  const auto proc_cgroup = read_system_file("/proc/self/cgroup", kMaxProcCgroupBytes);
  const auto mountinfo = read_system_file("/proc/self/mountinfo", kMaxMountinfoBytes);
  if (proc_cgroup && mountinfo) {
    if (const auto quota = cgroup_cpu_quota(cgroup_directories(*proc_cgroup, *mountinfo))) {
      u.quota = quota->cpus;
      u.quota_source = quota->source;
    }
  }
  u.count = usable_cpu_count(static_cast<int>(u.affinity.size()), u.quota);
  return u;
}

}  // namespace coalesce
