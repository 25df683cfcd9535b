// The device block of every report (bench, lab and screenshot JSON) and the driver line the tables and the
// panel show: written once, so every report names the same facts the same way.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/backend.h"

namespace coalesce {

// {"gpu", "name", "driver", "cuda_driver", "cuda_runtime", "multiprocessors", "memory_bytes", "sm_clock_khz",
//  "memory_clock_khz", "bus_width_bits", "theoretical_peak_gbps", "copy_peak_gbps"}: docs/bench-json.md.
nlohmann::json device_json(const DeviceInfo& device);

// "580.159.04 / CUDA 13.0" (the kernel driver and the CUDA version it supports); "" for the CPU.
std::string driver_text(const DeviceInfo& device);

}  // namespace coalesce
