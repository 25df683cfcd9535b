// device_json and driver_text: the one rendering of DeviceInfo for the reports and the panel.
#include "app/device_report.h"

namespace coalesce {

nlohmann::json device_json(const DeviceInfo& d) {
  return {{"gpu", d.gpu},
          {"name", d.name},
          {"driver", d.driver},
          {"cuda_driver", d.cuda_driver},
          {"cuda_runtime", d.cuda_runtime},
          {"multiprocessors", d.multiprocessors},
          {"memory_bytes", d.memory_bytes},
          {"sm_clock_khz", d.sm_clock_khz},
          {"memory_clock_khz", d.memory_clock_khz},
          {"bus_width_bits", d.bus_width_bits},
          {"theoretical_peak_gbps", d.theoretical_peak_gbps},
          {"copy_peak_gbps", d.copy_peak_gbps}};
}

std::string driver_text(const DeviceInfo& d) {
  if (d.cuda_driver.empty()) return d.driver;
  return (d.driver.empty() ? "" : d.driver + " / ") + "CUDA " + d.cuda_driver;
}

}  // namespace coalesce
