// Named ranges in the "coalesce" NVTX domain around frame phases, kernel families and bench and lab rows,
// so an Nsight Systems or Nsight Compute capture reads as the app's own structure, and scripts/profile can
// pick kernels by range (docs/profiling.md). NVTX3 is header-only in the CUDA toolkit and costs a few
// nanoseconds per range when no tool is attached; in a build without the toolkit the ranges are empty.
#pragma once

#include <string>

#if defined(COALESCE_HAVE_NVTX)
#include <nvtx3/nvtx3.hpp>
#endif

namespace coalesce {

#if defined(COALESCE_HAVE_NVTX)
struct NvtxDomain {
  static constexpr const char* name{"coalesce"};
};

// Pushed on construction, popped on destruction, on the calling thread.
class NvtxRange {
 public:
  explicit NvtxRange(const char* name) : m_range(name) {}
  explicit NvtxRange(const std::string& name) : m_range(name) {}

 private:
  nvtx3::scoped_range_in<NvtxDomain> m_range;
};
#else
class NvtxRange {
 public:
  explicit NvtxRange(const char*) {}
  explicit NvtxRange(const std::string&) {}
};
#endif

}  // namespace coalesce
