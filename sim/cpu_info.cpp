// CPU device info: /proc/cpuinfo for the name, a large memcpy for the copy ceiling.
#include "sim/cpu_info.h"

#include <chrono>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace coalesce {

namespace {

std::string cpu_model_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const auto start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? std::string("unknown CPU") : line.substr(start);
  }
  return "unknown CPU";
}

// 64 MiB buffers defeat the caches; repeat until ~50 ms have passed and count read + write bytes.
double measure_copy_gbps() {
  const std::size_t bytes = std::size_t{64} << 20;
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  std::memcpy(dst.data(), src.data(), bytes);  // warm-up: fault the pages in
  const auto start = std::chrono::steady_clock::now();
  double seconds = 0;
  int copies = 0;
  while (seconds < 0.05) {
    std::memcpy(dst.data(), src.data(), bytes);
    ++copies;
    src[static_cast<std::size_t>(copies) % bytes] = dst[0];  // keeps the copies observable
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  return 2.0 * static_cast<double>(bytes) * copies / seconds / 1e9;
}

}  // namespace

DeviceInfo cpu_device_info() {
  // Measured once per process: constructing many backends (tests, layout sweeps) costs the 50 ms once.
  static const DeviceInfo info = [] {
    DeviceInfo d;
    d.name = cpu_model_name();
    d.multiprocessors = static_cast<int>(std::thread::hardware_concurrency());
    // The CPU backend's "device memory" is the machine's RAM, so the panel does not read 0 GiB.
    d.memory_bytes =
        static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
    d.copy_peak_gbps = measure_copy_gbps();
    return d;
  }();
  return info;
}

}  // namespace coalesce
