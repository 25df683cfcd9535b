// Pack: every variant and layout writes the same bits as the CPU backend, through both output paths.
#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <memory>
#include <optional>

#include "kernels/cuda_backend.h"
#include "kernels/device_buffer.h"
#include "sim/cpu_backend.h"
#include "tests/kernels/kernel_test_support.h"
#include "tests/support/test_random.h"

namespace coalesce {
namespace {

using testing::TestRng;

std::vector<float> cpu_pack(const std::vector<Particle>& state, Layout layout) {
  CpuBackend cpu(static_cast<int>(state.size()), layout, 2);
  cpu.upload(state);
  std::vector<float> out(state.size() * kRenderFloatsPerParticle);
  cpu.pack(PackVariant::Naive, out.data(), MemorySpace::Host);
  return out;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Device path (as into a mapped GL buffer), poisoned first so an unwritten element cannot pass.
std::vector<float> gpu_pack_device(CudaBackend& gpu, PackVariant variant) {
  const std::size_t floats = static_cast<std::size_t>(gpu.particle_count()) * kRenderFloatsPerParticle;
  DeviceBuffer<Float4> out(static_cast<std::size_t>(gpu.particle_count()));
  COALESCE_CUDA_CHECK(cudaMemset(out.data(), 0xff, out.bytes()));
  gpu.pack(variant, reinterpret_cast<float*>(out.data()), MemorySpace::Device);
  gpu.synchronize();
  std::vector<float> host(floats);
  COALESCE_CUDA_CHECK(cudaMemcpy(host.data(), out.data(), out.bytes(), cudaMemcpyDeviceToHost));
  return host;
}

void expect_all_variants_match_cpu(TestRng& rng, int n) {
  const std::vector<Particle> state = testing::random_particles(rng, n);
  for (Layout layout : kAllLayouts) {
    const std::vector<float> expected = cpu_pack(state, layout);
    CudaBackend gpu(n, layout);
    gpu.upload(state);
    for (PackVariant variant : kAllPackVariants) {
      EXPECT_TRUE(same_bits(gpu_pack_device(gpu, variant), expected))
          << "device path, N=" << n << " " << to_string(layout) << " " << to_string(variant);
      std::vector<float> host(expected.size(), -1.0f);
      gpu.pack(variant, host.data(), MemorySpace::Host);
      EXPECT_TRUE(same_bits(host, expected))
          << "host path, N=" << n << " " << to_string(layout) << " " << to_string(variant);
    }
  }
}

TEST(CudaPack, EveryVariantAndLayoutMatchesTheCpuBitwiseAtOddSizes) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  for (int n : testing::odd_sizes()) expect_all_variants_match_cpu(rng, n);
}

TEST(CudaPack, EveryVariantAndLayoutMatchesTheCpuBitwiseAtLargeN) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  expect_all_variants_match_cpu(rng, testing::size_or_quick(4 << 20, 4099));
}

TEST(CudaPack, FastestVariantIsMeasuredOncePerLayout) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = testing::size_or_quick(1 << 20, 4099);
  CudaBackend gpu(n, Layout::SoA);
  gpu.upload(testing::random_particles(rng, n));
  std::array<std::optional<PackVariant>, kLayoutCount> chosen{};
  int timed_layouts = 0;
  // Random visits, each layout several times: only the first visit to a layout times the variants.
  for (int visit = 0; visit < 4 * int(kLayoutCount); ++visit) {
    const Layout layout = testing::random_layout(rng);
    gpu.set_layout(layout);
    gpu.synchronize();
    (void)gpu.poll_timings();  // the conversion's
    auto& known = chosen[static_cast<std::size_t>(layout)];
    const PackVariant variant = gpu.preferred_pack_variant();
    if (!known) {
      known = variant;
      ++timed_layouts;
    }
    EXPECT_EQ(variant, *known) << "the choice is cached for " << to_string(layout);
    EXPECT_EQ(gpu.preferred_pack_variant(), *known);
    EXPECT_EQ(gpu.pack_variant_timings(), timed_layouts)
        << "visit " << visit << " to " << to_string(layout) << " timed the variants again";
    EXPECT_TRUE(gpu.poll_timings().empty()) << "tuning launches stay out of the frame timings";
  }
}

// Through the Backend interface, as the bench and the viewer use it: the pack target is device memory
// the preferred variant packs into on the backend's own stream.
TEST(CudaPack, PackTargetIsDeviceMemoryTheBackendPacksInto) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int n = rng.uniform_int(1000, 5000);
  const Layout layout = testing::random_layout(rng);
  const std::vector<Particle> state = testing::random_particles(rng, n);
  CudaBackend gpu(n, layout);
  Backend& backend = gpu;
  backend.upload(state);
  EXPECT_TRUE(backend.device_info().gpu);
  ASSERT_NE(backend.interop_stream(), nullptr);
  EXPECT_EQ(backend.interop_stream()->native_stream(), gpu.stream());
  const std::unique_ptr<PackTarget> target = backend.bench_timing().make_pack_target();
  ASSERT_EQ(target->space(), MemorySpace::Device);
  const std::size_t bytes = static_cast<std::size_t>(n) * kRenderFloatsPerParticle * sizeof(float);
  COALESCE_CUDA_CHECK(cudaMemset(target->data(), 0xff, bytes));  // NaN: an unwritten element cannot pass
  backend.pack(backend.preferred_pack_variant(), target->data(), target->space());
  backend.synchronize();
  std::vector<float> host(static_cast<std::size_t>(n) * kRenderFloatsPerParticle);
  COALESCE_CUDA_CHECK(cudaMemcpy(host.data(), target->data(), bytes, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(same_bits(host, cpu_pack(state, layout))) << "N=" << n << " " << to_string(layout);
}

TEST(CudaPack, RejectsNullAndMisalignedDeviceOutput) {
  COALESCE_REQUIRE_CUDA();
  CudaBackend gpu(64, Layout::Float4);
  EXPECT_THROW(gpu.pack(PackVariant::Vector, nullptr, MemorySpace::Device), std::invalid_argument);
  DeviceBuffer<Float4> out(65);
  EXPECT_THROW(gpu.pack(PackVariant::Vector, reinterpret_cast<float*>(out.data()) + 1, MemorySpace::Device),
               std::invalid_argument);
}

}  // namespace
}  // namespace coalesce
