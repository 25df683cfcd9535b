// kernels/counters/cupti_session.h: the CUPTI pieces both instruments use.
#include "kernels/counters/cupti_session.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <utility>

#include "kernels/cuda_check.h"

namespace coalesce::counters {

namespace {

std::string located(const char* expression, const char* file, int line) {
  return std::string(expression) + " failed at " + file + ":" + std::to_string(line);
}

const char* support_text(CUpti_Profiler_Support_Level level) {
  switch (level) {
    case CUPTI_PROFILER_CONFIGURATION_SUPPORTED: return "supported";
    case CUPTI_PROFILER_CONFIGURATION_DISABLED: return "disabled";
    case CUPTI_PROFILER_CONFIGURATION_UNSUPPORTED: return "unsupported";
    default: return "unknown";
  }
}

}  // namespace

void cupti_check(CUptiResult result, const char* expression, const char* file, int line) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  throw CuptiError(result, "CUPTI error: " + located(expression, file, line) + ": " +
                               (text != nullptr ? text : "unknown error"));
}

void cu_check(CUresult result, const char* expression, const char* file, int line) {
  if (result == CUDA_SUCCESS) return;
  throw std::runtime_error("CUDA driver error: " + located(expression, file, line) + ": error " +
                           std::to_string(static_cast<int>(result)));
}

void cupti_check_print(CUptiResult result, const char* expression) {
  if (result == CUPTI_SUCCESS) return;
  const char* text = nullptr;
  cuptiGetResultString(result, &text);
  std::fprintf(stderr, "coalesce: CUPTI error: %s failed: %s\n", expression, text != nullptr ? text : "?");
}

std::string unavailable_reason(const std::exception& error) {
  const auto* cupti = dynamic_cast<const CuptiError*>(&error);
  if (cupti != nullptr) {
    switch (cupti->result()) {
      case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        return "hardware counters unavailable: profiling is restricted to admin users "
               "(NVreg_RestrictProfilingToAdminUsers=1)";
      case CUPTI_ERROR_NOT_SUPPORTED:
      case CUPTI_ERROR_NOT_COMPATIBLE:
      case CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED:
        return "hardware counters unavailable: not supported on this GPU or configuration";
      case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
        return "hardware counters unavailable: another profiler (Nsight, compute-sanitizer) holds CUPTI";
      default:
        break;
    }
  }
  std::string what = error.what();
  std::replace(what.begin(), what.end(), '\n', ' ');
  return "hardware counters unavailable: " + what;
}

std::string missing_device_reason(int device) {
  int count = 0;
  const cudaError_t error = cudaGetDeviceCount(&count);
  if (error != cudaSuccess)
    return std::string("hardware counters unavailable: no CUDA device (") + cudaGetErrorString(error) + ")";
  if (device < 0 || device >= count)
    return "hardware counters unavailable: no CUDA device " + std::to_string(device);
  return "";
}

ProfilerInit::ProfilerInit() {
  CUpti_Profiler_Initialize_Params p{CUpti_Profiler_Initialize_Params_STRUCT_SIZE, nullptr};
  COALESCE_CUPTI_CHECK(cuptiProfilerInitialize(&p));
}

ProfilerInit::~ProfilerInit() {
  CUpti_Profiler_DeInitialize_Params p{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE, nullptr};
  cupti_check_print(cuptiProfilerDeInitialize(&p), "cuptiProfilerDeInitialize");
}

CUcontext primary_context(int device) {
  COALESCE_CUDA_CHECK(cudaSetDevice(device));
  COALESCE_CUDA_CHECK(cudaFree(nullptr));  // creates the primary context if no CUDA call has yet
  // The driver's cuCtxGetCurrent through the runtime, which loaded the driver: linking libcuda itself
  // would stop every binary from starting on a machine without the driver (CPU CI).
  using CtxGetCurrent = CUresult (*)(CUcontext*);
  void* function = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  COALESCE_CUDA_CHECK(cudaGetDriverEntryPointByVersion("cuCtxGetCurrent", &function, 12000, cudaEnableDefault, &found));
  if (found != cudaDriverEntryPointSuccess || function == nullptr)
    throw std::runtime_error("the CUDA driver has no cuCtxGetCurrent");
  CUcontext context = nullptr;
  COALESCE_CU_CHECK(reinterpret_cast<CtxGetCurrent>(function)(&context));
  if (context == nullptr) throw std::runtime_error("no current CUDA context after cudaFree(0)");
  return context;
}

std::string chip_name(int device) {
  CUpti_Device_GetChipName_Params p{};
  p.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  p.deviceIndex = static_cast<std::size_t>(device);
  COALESCE_CUPTI_CHECK(cuptiDeviceGetChipName(&p));
  return p.pChipName != nullptr ? p.pChipName : "";
}

std::string device_unsupported_reason(int device, CUpti_Profiler_API api) {
  const CUdevice cu_device = device;  // the driver's device handle is the runtime's ordinal
  CUpti_Profiler_DeviceSupported_Params p{};
  p.structSize = CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE;
  p.cuDevice = cu_device;
  p.api = api;
  COALESCE_CUPTI_CHECK(cuptiProfilerDeviceSupported(&p));
  if (p.isSupported == CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "";
  std::string why;
  auto add = [&](const char* what, CUpti_Profiler_Support_Level level) {
    if (level != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
      why += (why.empty() ? "" : ", ") + std::string(what) + " " + support_text(level);
  };
  add("architecture", p.architecture);
  add("SLI", p.sli);
  add("vGPU", p.vGpu);
  add("confidential compute", p.confidentialCompute);
  add("CMP", p.cmp);
  add("WSL", p.wsl);
  return "not supported on this GPU (" + (why.empty() ? "no reason given" : why) + ")";
}

HostObject::HostObject(CUpti_ProfilerType type, std::string chip, std::vector<std::uint8_t> availability)
    : m_chip(std::move(chip)), m_availability(std::move(availability)) {
  CUpti_Profiler_Host_Initialize_Params p{};
  p.structSize = CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE;
  p.profilerType = type;
  p.pChipName = m_chip.c_str();
  p.pCounterAvailabilityImage = m_availability.empty() ? nullptr : m_availability.data();
  COALESCE_CUPTI_CHECK(cuptiProfilerHostInitialize(&p));
  m_host = p.pHostObject;
  for (CUpti_MetricType kind : {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT}) {
    CUpti_Profiler_Host_GetBaseMetrics_Params b{};
    b.structSize = CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE;
    b.pHostObject = m_host;
    b.metricType = kind;
    COALESCE_CUPTI_CHECK(cuptiProfilerHostGetBaseMetrics(&b));
    for (std::size_t i = 0; i < b.numMetrics; ++i) m_base_metrics.emplace_back(b.ppMetricNames[i]);
  }
}

HostObject::~HostObject() {
  CUpti_Profiler_Host_Deinitialize_Params p{};
  p.structSize = CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE;
  p.pHostObject = m_host;
  cupti_check_print(cuptiProfilerHostDeinitialize(&p), "cuptiProfilerHostDeinitialize");
}

bool HostObject::knows(const std::string& metric) const {
  const std::string base = metric.substr(0, metric.find('.'));
  return std::find(m_base_metrics.begin(), m_base_metrics.end(), base) != m_base_metrics.end();
}

std::vector<std::uint8_t> HostObject::config_image(const std::vector<const char*>& metrics) {
  CUpti_Profiler_Host_ConfigAddMetrics_Params add{};
  add.structSize = CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE;
  add.pHostObject = m_host;
  add.ppMetricNames = const_cast<const char**>(metrics.data());
  add.numMetrics = metrics.size();
  COALESCE_CUPTI_CHECK(cuptiProfilerHostConfigAddMetrics(&add));
  CUpti_Profiler_Host_GetConfigImageSize_Params size{};
  size.structSize = CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE;
  size.pHostObject = m_host;
  COALESCE_CUPTI_CHECK(cuptiProfilerHostGetConfigImageSize(&size));
  std::vector<std::uint8_t> image(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params get{};
  get.structSize = CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE;
  get.pHostObject = m_host;
  get.configImageSize = image.size();
  get.pConfigImage = image.data();
  COALESCE_CUPTI_CHECK(cuptiProfilerHostGetConfigImage(&get));
  return image;
}

std::size_t HostObject::passes(std::vector<std::uint8_t>& config) const {
  CUpti_Profiler_Host_GetNumOfPasses_Params p{};
  p.structSize = CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE;
  p.configImageSize = config.size();
  p.pConfigImage = config.data();
  COALESCE_CUPTI_CHECK(cuptiProfilerHostGetNumOfPasses(&p));
  return p.numOfPasses;
}

std::vector<double> HostObject::evaluate(const std::vector<std::uint8_t>& counter_data, std::size_t range,
                                         const std::vector<const char*>& metrics) const {
  std::vector<double> values(metrics.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params p{};
  p.structSize = CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE;
  p.pHostObject = m_host;
  p.pCounterDataImage = counter_data.data();
  p.counterDataImageSize = counter_data.size();
  p.rangeIndex = range;
  p.ppMetricNames = const_cast<const char**>(metrics.data());
  p.numMetrics = metrics.size();
  p.pMetricValues = values.data();
  COALESCE_CUPTI_CHECK(cuptiProfilerHostEvaluateToGpuValues(&p));
  return values;
}

std::string first_known(const HostObject& host, const std::vector<std::string>& candidates) {
  for (const std::string& name : candidates)
    if (host.knows(name)) return name;
  return "";
}

}  // namespace coalesce::counters
