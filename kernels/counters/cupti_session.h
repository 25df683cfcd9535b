// What the range profiler (counter_pass_cupti.cpp) and PM sampling (hardware_sampler_cupti.cpp) share:
// the CUPTI result check, owners for the profiler's initialisation and the host object (metric names ->
// config image -> values), the device's chip name and context, and the one-line reasons for the user.
#pragma once

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace coalesce::counters {

// A failed CUPTI call: the expression, where, and CUPTI's own text. `result` lets callers turn the known
// refusals (no permission, unsupported device) into one line for the user.
class CuptiError : public std::runtime_error {
 public:
  CuptiError(CUptiResult result, const std::string& what) : std::runtime_error(what), m_result(result) {}
  CUptiResult result() const { return m_result; }

 private:
  CUptiResult m_result;
};

void cupti_check(CUptiResult result, const char* expression, const char* file, int line);
void cu_check(CUresult result, const char* expression, const char* file, int line);
// For destructors: logs instead of throwing.
void cupti_check_print(CUptiResult result, const char* expression);

#define COALESCE_CUPTI_CHECK(expr) ::coalesce::counters::cupti_check((expr), #expr, __FILE__, __LINE__)
#define COALESCE_CU_CHECK(expr) ::coalesce::counters::cu_check((expr), #expr, __FILE__, __LINE__)

// The user's line for a CUPTI failure: "hardware counters unavailable: <why>".
std::string unavailable_reason(const std::exception& error);
// Empty when `device` exists, else the user's line (no device, or CUDA's error).
std::string missing_device_reason(int device);

// cuptiProfilerInitialize / cuptiProfilerDeInitialize.
class ProfilerInit {
 public:
  ProfilerInit();
  ~ProfilerInit();
  ProfilerInit(const ProfilerInit&) = delete;
  ProfilerInit& operator=(const ProfilerInit&) = delete;
};

// The device's primary context, made current on this thread (the one the app's kernels run in).
CUcontext primary_context(int device);
std::string chip_name(int device);
// Whether CUPTI supports `api` on `device`; empty when it does, else why not (vGPU, WSL, ...).
std::string device_unsupported_reason(int device, CUpti_Profiler_API api);

// A CUPTI host object for one profiler type and chip: checks metric names, builds the config image and
// evaluates counter data into metric values.
class HostObject {
 public:
  // Keeps `chip` and `availability`: CUPTI holds on to both pointers for the host object's lifetime.
  HostObject(CUpti_ProfilerType type, std::string chip, std::vector<std::uint8_t> availability);
  ~HostObject();
  HostObject(const HostObject&) = delete;
  HostObject& operator=(const HostObject&) = delete;

  // Whether the chip knows `metric` ("dram__bytes_read.sum": base name + submetric).
  bool knows(const std::string& metric) const;
  // The config image for `metrics` (every name must be known).
  std::vector<std::uint8_t> config_image(const std::vector<const char*>& metrics);
  std::size_t passes(std::vector<std::uint8_t>& config) const;
  std::vector<double> evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                               const std::vector<const char*>& metrics) const;

 private:
  std::string m_chip;
  std::vector<std::uint8_t> m_availability;
  CUpti_Profiler_Host_Object* m_host = nullptr;
  std::vector<std::string> m_base_metrics;
};

// The first of `candidates` the chip knows; empty if none. Names differ between GPU generations.
std::string first_known(const HostObject& host, const std::vector<std::string>& candidates);

}  // namespace coalesce::counters
