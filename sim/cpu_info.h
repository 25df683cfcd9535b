// What the CPU backend reports about its machine: model name, hardware threads, measured copy bandwidth.
#pragma once

#include "sim/backend.h"

namespace coalesce {

// Name from /proc/cpuinfo ("unknown CPU" if unreadable), hardware threads, and a memcpy bandwidth
// (bytes read + written) measured over ~50 ms the first time it is called in a process.
DeviceInfo cpu_device_info();

}  // namespace coalesce
