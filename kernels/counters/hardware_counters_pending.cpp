// PENDING STAND-IN (issue 11, branch i11-panel): lets the viewer build and run before the CUPTI side
// (branch i11-cupti) lands. Drop this file and its target in app/viewer/CMakeLists.txt at merge.
#include "kernels/counters/hardware_counters.h"

namespace coalesce {
namespace {
const char* const kPending =
    "hardware counters unavailable: pending (the CUPTI side is not in this build yet)";
}  // namespace

CounterAvailability counter_availability(int) {
  return {false, kPending};
}

std::unique_ptr<CounterPass> make_counter_pass(int, std::string& why) {
  why = kPending;
  return nullptr;
}

std::unique_ptr<HardwareSampler> make_hardware_sampler(int, double, std::string& why) {
  why = kPending;
  return nullptr;
}

}  // namespace coalesce
