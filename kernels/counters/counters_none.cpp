// kernels/counters/hardware_counters.h in a build without the CUDA toolkit: no instrument, one reason.
#include "kernels/counters/hardware_counters.h"

namespace coalesce {

namespace {
constexpr const char* kWhy = "hardware counters unavailable: built without CUDA";
}

CounterAvailability counter_availability(int) {
  return {false, kWhy};
}

std::unique_ptr<CounterPass> make_counter_pass(int, std::string& why) {
  why = kWhy;
  return nullptr;
}

std::unique_ptr<HardwareSampler> make_hardware_sampler(int, double, std::string& why) {
  why = kWhy;
  return nullptr;
}

}  // namespace coalesce
