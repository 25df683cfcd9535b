// The counter pass (kernels/counters/hardware_counters.h) on CUPTI's range profiler: automatic ranges
// (one per kernel launch) with kernel replay, so CUPTI replays each kernel as many passes as the metrics
// need and restores device memory between passes; the caller's launches run once and each kernel's
// counters are those of one launch.
#include <cuda_runtime.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <string>
#include <vector>

#include "kernels/counters/cupti_session.h"
#include "kernels/counters/hardware_counters.h"
#include "kernels/cuda_check.h"

namespace coalesce {

namespace {

using counters::HostObject;
using counters::ProfilerInit;

constexpr std::size_t kMaxRanges = 256;  // kernel launches one measure() may hold

// Each RowCounters field and the metric names that give it, first known name wins (Hopper's first).
struct Field {
  double RowCounters::*member;
  std::vector<std::string> names;
};

const std::vector<Field>& fields() {
  static const std::vector<Field> table = {
      {&RowCounters::dram_read_bytes, {"dram__bytes_read.sum"}},
      {&RowCounters::dram_write_bytes, {"dram__bytes_write.sum"}},
      {&RowCounters::global_load_sectors, {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"}},
      {&RowCounters::global_load_requests, {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"}},
      {&RowCounters::global_store_sectors, {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}},
      {&RowCounters::global_store_requests, {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"}},
      {&RowCounters::shared_load_wavefronts, {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"}},
      {&RowCounters::shared_load_requests,
       {"smsp__inst_executed_op_shared_ld.sum", "l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum"}},
      {&RowCounters::shared_store_wavefronts, {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}},
      {&RowCounters::shared_store_requests,
       {"smsp__inst_executed_op_shared_st.sum", "l1tex__t_requests_pipe_lsu_mem_shared_op_st.sum"}},
      {&RowCounters::sm_clock_hz, {"gpc__cycles_elapsed.avg.per_second", "sm__cycles_elapsed.avg.per_second"}},
      {&RowCounters::dram_clock_hz, {"dram__cycles_elapsed.avg.per_second"}},
      {&RowCounters::duration_ns, {"gpu__time_duration.sum"}},
  };
  return table;
}

std::vector<std::uint8_t> counter_availability_image(CUcontext context) {
  CUpti_Profiler_GetCounterAvailability_Params p{};
  p.structSize = CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE;
  p.ctx = context;
  COALESCE_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&p));
  std::vector<std::uint8_t> image(p.counterAvailabilityImageSize);
  p.pCounterAvailabilityImage = image.data();
  COALESCE_CUPTI_CHECK(cuptiProfilerGetCounterAvailability(&p));
  return image;
}

// cuptiRangeProfilerEnable / Disable on one context: one per measure(), so no state outlives a call.
class RangeProfiler {
 public:
  explicit RangeProfiler(CUcontext context) {
    CUpti_RangeProfiler_Enable_Params p{};
    p.structSize = CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE;
    p.ctx = context;
    COALESCE_CUPTI_CHECK(cuptiRangeProfilerEnable(&p));
    m_object = p.pRangeProfilerObject;
  }
  ~RangeProfiler() {
    CUpti_RangeProfiler_Disable_Params p{};
    p.structSize = CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE;
    p.pRangeProfilerObject = m_object;
    counters::cupti_check_print(cuptiRangeProfilerDisable(&p), "cuptiRangeProfilerDisable");
  }
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;
  CUpti_RangeProfiler_Object* get() const { return m_object; }

 private:
  CUpti_RangeProfiler_Object* m_object = nullptr;
};

class CuptiCounterPass final : public CounterPass {
 public:
  explicit CuptiCounterPass(int device) : m_device(device) {
    m_context = counters::primary_context(device);
    const std::string unsupported = counters::device_unsupported_reason(device, CUPTI_PROFILER_RANGE_PROFILING);
    if (!unsupported.empty()) throw std::runtime_error(unsupported);
    m_chip = counters::chip_name(device);
    m_host = std::make_unique<HostObject>(CUPTI_PROFILER_TYPE_RANGE_PROFILER, m_chip,
                                          counter_availability_image(m_context));
    for (const Field& field : fields()) {
      const std::string name = counters::first_known(*m_host, field.names);
      if (name.empty()) throw std::runtime_error("metric " + field.names.front() + " unknown on chip " + m_chip);
      m_names.push_back(name);
    }
    for (const std::string& name : m_names) m_metrics.push_back(name.c_str());
    m_config = m_host->config_image(m_metrics);
  }

  RowCounters measure(const std::function<void()>& launches) override {
    std::vector<RowCounters> parts;
    for (const KernelCounters& k : measure_kernels(launches)) parts.push_back(k.counters);
    return combine(parts);
  }

  std::vector<KernelCounters> measure_kernels(const std::function<void()>& launches) override {
    COALESCE_CUDA_CHECK(cudaSetDevice(m_device));
    COALESCE_CUDA_CHECK(cudaDeviceSynchronize());  // nothing earlier lands in the first range
    std::vector<std::uint8_t> data;
    {
      RangeProfiler profiler(m_context);
      CUpti_RangeProfiler_GetCounterDataSize_Params size{};
      size.structSize = CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE;
      size.pRangeProfilerObject = profiler.get();
      size.pMetricNames = m_metrics.data();
      size.numMetrics = m_metrics.size();
      size.maxNumOfRanges = kMaxRanges;
      size.maxNumRangeTreeNodes = kMaxRanges;
      COALESCE_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataSize(&size));
      data.resize(size.counterDataSize);
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{};
      init.structSize = CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE;
      init.pRangeProfilerObject = profiler.get();
      init.counterDataSize = data.size();
      init.pCounterData = data.data();
      COALESCE_CUPTI_CHECK(cuptiRangeProfilerCounterDataImageInitialize(&init));

      CUpti_RangeProfiler_SetConfig_Params config{};
      config.structSize = CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE;
      config.pRangeProfilerObject = profiler.get();
      config.configSize = m_config.size();
      config.pConfig = m_config.data();
      config.counterDataImageSize = data.size();
      config.pCounterDataImage = data.data();
      config.range = CUPTI_AutoRange;
      config.replayMode = CUPTI_KernelReplay;
      config.maxRangesPerPass = kMaxRanges;
      config.numNestingLevels = 1;
      config.minNestingLevel = 1;
      config.passIndex = 0;
      config.targetNestingLevel = 1;
      COALESCE_CUPTI_CHECK(cuptiRangeProfilerSetConfig(&config));

      CUpti_RangeProfiler_Start_Params start{};
      start.structSize = CUpti_RangeProfiler_Start_Params_STRUCT_SIZE;
      start.pRangeProfilerObject = profiler.get();
      COALESCE_CUPTI_CHECK(cuptiRangeProfilerStart(&start));
      launches();
      COALESCE_CUDA_CHECK(cudaDeviceSynchronize());
      CUpti_RangeProfiler_Stop_Params stop{};
      stop.structSize = CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE;
      stop.pRangeProfilerObject = profiler.get();
      COALESCE_CUPTI_CHECK(cuptiRangeProfilerStop(&stop));

      CUpti_RangeProfiler_DecodeData_Params decode{};
      decode.structSize = CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE;
      decode.pRangeProfilerObject = profiler.get();
      COALESCE_CUPTI_CHECK(cuptiRangeProfilerDecodeData(&decode));
      if (decode.numOfRangeDropped > 0)
        throw std::runtime_error("the range profiler dropped " + std::to_string(decode.numOfRangeDropped) +
                                 " kernel ranges (more than " + std::to_string(kMaxRanges) + " launches)");
    }

    CUpti_RangeProfiler_GetCounterDataInfo_Params info{};
    info.structSize = CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE;
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    COALESCE_CUPTI_CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));
    std::vector<KernelCounters> kernels;
    for (std::size_t range = 0; range < info.numTotalRanges; ++range) {
      CUpti_RangeProfiler_CounterData_GetRangeInfo_Params name{};
      name.structSize = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE;
      name.pCounterDataImage = data.data();
      name.counterDataImageSize = data.size();
      name.rangeIndex = range;
      name.rangeDelimiter = "/";
      COALESCE_CUPTI_CHECK(cuptiRangeProfilerCounterDataGetRangeInfo(&name));
      KernelCounters k;
      k.kernel = name.rangeName != nullptr ? name.rangeName : "";
      const std::vector<double> values = m_host->evaluate(data, range, m_metrics);
      for (std::size_t i = 0; i < values.size(); ++i) k.counters.*(fields()[i].member) = values[i];
      kernels.push_back(std::move(k));
    }
    return kernels;
  }

 private:
  int m_device;
  ProfilerInit m_init;  // first: initialised before, torn down after everything below
  CUcontext m_context = nullptr;
  std::string m_chip;
  std::unique_ptr<HostObject> m_host;
  std::vector<std::string> m_names;
  std::vector<const char*> m_metrics;  // points into m_names
  std::vector<std::uint8_t> m_config;
};

}  // namespace

std::unique_ptr<CounterPass> make_counter_pass(int device, std::string& why) {
  why = counters::missing_device_reason(device);
  if (!why.empty()) return nullptr;
  try {
    return std::make_unique<CuptiCounterPass>(device);
  } catch (const std::exception& error) {
    why = counters::unavailable_reason(error);
    return nullptr;
  }
}

CounterAvailability counter_availability(int device) {
  std::string why;
  const std::unique_ptr<CounterPass> pass = make_counter_pass(device, why);
  return {pass != nullptr, why};
}

}  // namespace coalesce
