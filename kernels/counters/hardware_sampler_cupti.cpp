// The hardware sampler (kernels/counters/hardware_counters.h) on CUPTI PM sampling: the GPU writes a
// sample of DRAM traffic and clocks into a hardware buffer every interval; the decoder's poll() decodes
// what has arrived into a counter data image, evaluates each completed sample and starts the image afresh.
// It runs on a ThreadedSampler's worker (sampler_thread.h), while the app launches kernels on its own
// thread. What that relies on: every PM sampling call names a device (Enable's deviceIndex) or the PM
// sampling object, never a context (cupti_pmsampling.h), and NVIDIA's pm_sampling sample decodes on a
// thread of its own while the main thread launches ("two separate threads are required"). The header
// states no thread-safety for these calls, so no two threads ever use the object at once: it is set up
// and started here before the worker starts, decoded only on the worker, stopped after the worker joins.
#include <cupti_activity.h>
#include <cupti_pmsampling.h>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/counters/cupti_session.h"
#include "kernels/counters/hardware_counters.h"
#include "kernels/counters/sampler_thread.h"
#include "kernels/cuda_check.h"

namespace coalesce {

namespace {

using counters::HostObject;
using counters::ProfilerInit;

constexpr std::size_t kHardwareBufferBytes = 64u << 20;  // about a minute of samples at 1 ms
constexpr std::uint32_t kMaxSamplesPerDecode = 4096;
constexpr int kMaxDecodesPerPoll = 16;

// What a sample holds, in HardwareSample's order, with the names each generation may use.
const std::vector<std::vector<std::string>>& sample_metrics() {
  static const std::vector<std::vector<std::string>> table = {
      {"dram__bytes_read.sum.per_second"},
      {"dram__bytes_write.sum.per_second"},
      {"gpc__cycles_elapsed.avg.per_second", "sm__cycles_elapsed.avg.per_second"},
      {"dram__cycles_elapsed.avg.per_second"},
  };
  return table;
}

std::vector<std::uint8_t> pm_counter_availability(int device) {
  CUpti_PmSampling_GetCounterAvailability_Params p{};
  p.structSize = CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE;
  p.deviceIndex = static_cast<std::size_t>(device);
  COALESCE_CUPTI_CHECK(cuptiPmSamplingGetCounterAvailability(&p));
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  COALESCE_CUPTI_CHECK(cuptiPmSamplingGetCounterAvailability(&p));
  return image;
}

// cuptiPmSamplingEnable / Disable.
class PmSamplingObject {
 public:
  explicit PmSamplingObject(int device) {
    CUpti_PmSampling_Enable_Params p{};
    p.structSize = CUpti_PmSampling_Enable_Params_STRUCT_SIZE;
    p.deviceIndex = static_cast<std::size_t>(device);
    COALESCE_CUPTI_CHECK(cuptiPmSamplingEnable(&p));
    m_object = p.pPmSamplingObject;
  }
  ~PmSamplingObject() {
    CUpti_PmSampling_Disable_Params p{};
    p.structSize = CUpti_PmSampling_Disable_Params_STRUCT_SIZE;
    p.pPmSamplingObject = m_object;
    counters::cupti_check_print(cuptiPmSamplingDisable(&p), "cuptiPmSamplingDisable");
  }
  PmSamplingObject(const PmSamplingObject&) = delete;
  PmSamplingObject& operator=(const PmSamplingObject&) = delete;
  CUpti_PmSampling_Object* get() const { return m_object; }

 private:
  CUpti_PmSampling_Object* m_object = nullptr;
};

// cuptiPmSamplingStart / Stop.
class PmSamplingRun {
 public:
  explicit PmSamplingRun(CUpti_PmSampling_Object* object) : m_object(object) {
    CUpti_PmSampling_Start_Params p{};
    p.structSize = CUpti_PmSampling_Start_Params_STRUCT_SIZE;
    p.pPmSamplingObject = m_object;
    COALESCE_CUPTI_CHECK(cuptiPmSamplingStart(&p));
  }
  ~PmSamplingRun() {
    CUpti_PmSampling_Stop_Params p{};
    p.structSize = CUpti_PmSampling_Stop_Params_STRUCT_SIZE;
    p.pPmSamplingObject = m_object;
    counters::cupti_check_print(cuptiPmSamplingStop(&p), "cuptiPmSamplingStop");
  }
  PmSamplingRun(const PmSamplingRun&) = delete;
  PmSamplingRun& operator=(const PmSamplingRun&) = delete;

 private:
  CUpti_PmSampling_Object* m_object;
};

class CuptiHardwareSampler final : public HardwareSampler {
 public:
  CuptiHardwareSampler(int device, double interval_ms) {
    counters::primary_context(device);
    const std::string unsupported = counters::device_unsupported_reason(device, CUPTI_PROFILER_PM_SAMPLING);
    if (!unsupported.empty()) throw std::runtime_error(unsupported);
    const std::string chip = counters::chip_name(device);
    m_host = std::make_unique<HostObject>(CUPTI_PROFILER_TYPE_PM_SAMPLING, chip, pm_counter_availability(device));
    for (const std::vector<std::string>& names : sample_metrics()) {
      const std::string name = counters::first_known(*m_host, names);
      if (name.empty()) throw std::runtime_error("metric " + names.front() + " unknown on chip " + chip);
      m_names.push_back(name);
    }
    for (const std::string& name : m_names) m_metrics.push_back(name.c_str());
    m_config = m_host->config_image(m_metrics);

    m_object = std::make_unique<PmSamplingObject>(device);
    CUpti_PmSampling_SetConfig_Params set{};
    set.structSize = CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE;
    set.pPmSamplingObject = m_object->get();
    set.configSize = m_config.size();
    set.pConfig = m_config.data();
    set.hardwareBufferSize = kHardwareBufferBytes;
    set.samplingInterval = static_cast<std::uint64_t>(std::llround(interval_ms * 1e6));  // ns
    set.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    set.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_LATEST;
    COALESCE_CUPTI_CHECK(cuptiPmSamplingSetConfig(&set));

    CUpti_PmSampling_GetCounterDataSize_Params size{};
    size.structSize = CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE;
    size.pPmSamplingObject = m_object->get();
    size.pMetricNames = m_metrics.data();
    size.numMetrics = m_metrics.size();
    size.maxSamples = kMaxSamplesPerDecode;
    COALESCE_CUPTI_CHECK(cuptiPmSamplingGetCounterDataSize(&size));
    m_data.resize(size.counterDataSize);
    reset_counter_data();
    COALESCE_CUPTI_CHECK(cuptiGetTimestamp(&m_start_ns));
    m_run = std::make_unique<PmSamplingRun>(m_object->get());
  }

  std::vector<HardwareSample> poll() override {
    std::vector<HardwareSample> samples;
    for (int decodes = 0; decodes < kMaxDecodesPerPoll; ++decodes) {
      CUpti_PmSampling_DecodeData_Params decode{};
      decode.structSize = CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE;
      decode.pPmSamplingObject = m_object->get();
      decode.pCounterDataImage = m_data.data();
      decode.counterDataImageSize = m_data.size();
      COALESCE_CUPTI_CHECK(cuptiPmSamplingDecodeData(&decode));

      CUpti_PmSampling_GetCounterDataInfo_Params info{};
      info.structSize = CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE;
      info.pCounterDataImage = m_data.data();
      info.counterDataImageSize = m_data.size();
      COALESCE_CUPTI_CHECK(cuptiPmSamplingGetCounterDataInfo(&info));
      for (std::size_t i = 0; i < info.numCompletedSamples; ++i) {
        CUpti_PmSampling_CounterData_GetSampleInfo_Params sample{};
        sample.structSize = CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE;
        sample.pPmSamplingObject = m_object->get();
        sample.pCounterDataImage = m_data.data();
        sample.counterDataImageSize = m_data.size();
        sample.sampleIndex = i;
        COALESCE_CUPTI_CHECK(cuptiPmSamplingCounterDataGetSampleInfo(&sample));
        const std::vector<double> v = m_host->evaluate(m_data, i, m_metrics);
        HardwareSample out;
        out.seconds = sample.endTimestamp >= m_start_ns ? 1e-9 * double(sample.endTimestamp - m_start_ns) : 0.0;
        out.dram_read_bytes_per_second = v[0];
        out.dram_write_bytes_per_second = v[1];
        out.sm_clock_hz = v[2];
        out.dram_clock_hz = v[3];
        samples.push_back(out);
      }
      reset_counter_data();
      if (decode.decodeStopReason != CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL) break;
    }
    return samples;
  }

 private:
  void reset_counter_data() {
    CUpti_PmSampling_CounterDataImage_Initialize_Params init{};
    init.structSize = CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE;
    init.pPmSamplingObject = m_object->get();
    init.counterDataSize = m_data.size();
    init.pCounterData = m_data.data();
    COALESCE_CUPTI_CHECK(cuptiPmSamplingCounterDataImageInitialize(&init));
  }

  ProfilerInit m_init;  // first: torn down last
  std::unique_ptr<HostObject> m_host;
  std::vector<std::string> m_names;
  std::vector<const char*> m_metrics;  // points into m_names
  std::vector<std::uint8_t> m_config;  // kept: CUPTI may hold on to the pointer
  std::unique_ptr<PmSamplingObject> m_object;
  std::vector<std::uint8_t> m_data;
  std::uint64_t m_start_ns = 0;
  std::unique_ptr<PmSamplingRun> m_run;  // last: stopped first
};

}  // namespace

std::unique_ptr<HardwareSampler> make_hardware_sampler(int device, double interval_ms, std::string& why) {
  if (!(interval_ms >= 0.01 && interval_ms <= 10000.0)) {
    why = "hardware sampler: interval " + std::to_string(interval_ms) + " ms is outside 0.01..10000 ms";
    return nullptr;
  }
  why = counters::missing_device_reason(device);
  if (!why.empty()) return nullptr;
  try {
    // The worker makes the device's primary context current first (cudaSetDevice does since CUDA 12),
    // the context the app's kernels and this sampler's setup use.
    return std::make_unique<ThreadedSampler>(std::make_unique<CuptiHardwareSampler>(device, interval_ms),
                                             interval_ms, [device] { COALESCE_CUDA_CHECK(cudaSetDevice(device)); });
  } catch (const std::exception& error) {
    why = counters::unavailable_reason(error);
    return nullptr;
  }
}

}  // namespace coalesce
