// On a GPU machine: 1000 random live switches of layout, pack variant and N through the viewer's own parts
// (ViewerSimulation, RenderPath, ParticleRenderer) in one headless EGL context on the CUDA device, with a
// step, a pack and a draw after each; device memory after returning to the first N equals what it was
// before the switches. Skips without a device.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "app/options.h"
#include "app/viewer_render_path.h"
#include "app/viewer_simulation.h"
#include "render/gl_api.h"
#include "render/headless_context.h"
#include "render/orbit_camera.h"
#include "render/particle_renderer.h"
#include "tests/support/test_random.h"
#if defined(COALESCE_HAVE_CUDA)
#include "kernels/device_probe.h"
#endif

namespace coalesce::testing {
namespace {

constexpr int kSide = 256;  // a small framebuffer: the draw is exercised, not measured

struct Viewer {
  explicit Viewer(const Options& options) : simulation(options) { rebuild(); }
  // What ViewerApp does on a new N: unregister before the buffer is reallocated, then register again.
  void rebuild() {
    path.reset();
    path = std::make_unique<RenderPath>(simulation.backend(), simulation.is_cuda(), renderer);
  }
  void frame(PackVariant variant) {
    simulation.advance();
    path->update(simulation.backend(), variant, renderer);
    renderer.draw(camera, Viewport{0, 0, kSide, kSide}, SpriteStyle{});
  }
  ViewerSimulation simulation;
  ParticleRenderer renderer;
  std::unique_ptr<RenderPath> path;
  OrbitCamera camera;
};

TEST(LiveSwitches, ThousandRandomSwitchesLeaveDeviceMemoryAsItWas) {
#if !defined(COALESCE_HAVE_CUDA)
  GTEST_SKIP() << "skipped: no CUDA device (built without CUDA)";
#else
  if (cuda_device_count(nullptr) == 0) GTEST_SKIP() << "skipped: no CUDA device";
  TestRng rng;
  HeadlessContext context(kSide, kSide, 0);
  Options options;
  options.backend = BackendChoice::Cuda;
  options.scene = "swirl";
  const int first_n = rng.uniform_int(1 << 16, 1 << 20);
  options.particles = first_n;
  Viewer viewer(options);
  ASSERT_EQ(viewer.path->mode(), RenderPathMode::Interop) << viewer.path->notice();

  // Every kernel once in every layout and variant first: the runtime loads kernel code lazily, into
  // device memory, on a kernel's first launch, which is not a leak.
  for (Layout layout : kAllLayouts) {
    viewer.simulation.set_layout(layout);
    for (PackVariant variant : kAllPackVariants) viewer.frame(variant);
  }
  viewer.simulation.backend().synchronize();
  glFinish();
  const std::size_t before = free_device_memory(0);

  int layout_switches = 0, variant_switches = 0, n_switches = 0;
  PackVariant variant = kAllPackVariants[0];
  for (int i = 0; i < 1000; ++i) {
    switch (rng.uniform_int(0, 2)) {
      case 0:
        viewer.simulation.set_layout(kAllLayouts[static_cast<std::size_t>(rng.uniform_int(0, 2))]);
        ++layout_switches;
        break;
      case 1:
        variant = kAllPackVariants[static_cast<std::size_t>(rng.uniform_int(0, 3))];
        ++variant_switches;
        break;
      default:
        viewer.simulation.reseed(rng.uniform_int(1, 1 << 20));
        viewer.rebuild();
        ++n_switches;
        break;
    }
    viewer.frame(variant);
  }
  viewer.simulation.reseed(first_n);
  viewer.rebuild();
  viewer.frame(variant);
  viewer.simulation.backend().synchronize();
  glFinish();
  const std::size_t after = free_device_memory(0);
  std::printf("switches: %d layout, %d pack variant, %d N; free device memory before %zu, after %zu bytes\n",
              layout_switches, variant_switches, n_switches, before, after);
  EXPECT_EQ(after, before) << "device memory changed by "
                           << static_cast<long long>(before) - static_cast<long long>(after)
                           << " bytes after returning to N = " << first_n;
  const std::vector<Particle> state = viewer.simulation.backend().download();
  ASSERT_EQ(static_cast<int>(state.size()), first_n);
#endif
}

}  // namespace
}  // namespace coalesce::testing
