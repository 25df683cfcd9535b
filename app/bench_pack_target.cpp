// BenchPackTarget: a device buffer for CudaBackend, a host vector otherwise.
#include "app/bench_pack_target.h"

#include <vector>

#ifdef COALESCE_HAVE_CUDA
#include "kernels/cuda_backend.h"
#include "kernels/device_buffer.h"
#endif

namespace coalesce {

namespace {

class HostTarget final : public BenchPackTarget {
 public:
  explicit HostTarget(int n) : m_data(static_cast<std::size_t>(n) * kRenderFloatsPerParticle) {}
  float* data() override { return m_data.data(); }
  MemorySpace space() const override { return MemorySpace::Host; }

 private:
  std::vector<float> m_data;
};

#ifdef COALESCE_HAVE_CUDA
class DeviceTarget final : public BenchPackTarget {
 public:
  explicit DeviceTarget(int n) : m_data(static_cast<std::size_t>(n)) {}
  float* data() override { return reinterpret_cast<float*>(m_data.data()); }
  MemorySpace space() const override { return MemorySpace::Device; }

 private:
  DeviceBuffer<Float4> m_data;  // cudaMalloc: 256-byte aligned, as the pack kernels need
};
#endif

}  // namespace

std::unique_ptr<BenchPackTarget> make_bench_pack_target(Backend& backend) {
#ifdef COALESCE_HAVE_CUDA
  if (dynamic_cast<CudaBackend*>(&backend) != nullptr)
    return std::make_unique<DeviceTarget>(backend.particle_count());
#endif
  return std::make_unique<HostTarget>(backend.particle_count());
}

}  // namespace coalesce
