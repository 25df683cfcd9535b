// What the CPU backend reports about its machine (sim/cpu_facts.h), read and measured once per process, and
// the rules those facts follow, exposed so tests can check them on values of their own.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "sim/backend.h"

namespace coalesce {

// The facts of this machine: read from /proc and /sys and the copy ceiling measured, the first time it is
// called in a process (about 0.2 s with 128 MiB buffers); the same object afterwards.
const CpuFacts& cpu_facts();

// DeviceInfo of the CPU backend: cpu_facts() in `cpu`, the model as the name, the hardware threads as
// multiprocessors, RAM as memory, the copy ceiling; the GPU-only values unknown.
DeviceInfo cpu_device_info();

// Each copy buffer: 4 x the last-level cache, within 64 MiB..1 GiB, so no cache holds it; 256 MiB when the
// cache size is unknown.
std::size_t cpu_copy_buffer_bytes(std::optional<std::size_t> last_level_cache_bytes);

// A sysfs cache size ("32768K", "1M", "512") in bytes; none when it is not one.
std::optional<std::size_t> parse_cache_size(const std::string& text);

// interactions/s at `issue_width` instructions per cycle on every core used (min(threads, cores)), each
// interaction costing instructions_per_iteration / interactions_per_iteration instructions; none when the
// clock or the instruction count is unknown.
std::optional<double> cpu_issue_limit(const CpuFacts& facts);

}  // namespace coalesce
