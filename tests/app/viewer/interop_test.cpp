// On a GPU machine: headless EGL on the NVIDIA device with the CUDA backend draws through CUDA-GL
// interop, and --no-interop takes the copy path with a notice. Skips without a device.
#include <gtest/gtest.h>

#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 900;

ProcessResult run_cuda_headless(const std::string& png, int particles,
                                const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"--solver", "attractors"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_process(
      viewer_command({true, "cuda", "swirl", particles, "soa", 30, kWidth, kHeight, png, args}), {"DISPLAY"});
}

TEST(Interop, CudaBackendDrawsThroughInteropAndFallsBackWhenDisabled) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  const int particles = rng.uniform_int(1 << 19, 1 << 21);
  TempDir dir;
  const std::string interop_png = dir.file("interop.png");
  const ProcessResult a = run_cuda_headless(interop_png, particles, {});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  expect_panel_and_particles(interop_png, kWidth, kHeight);
  const auto ja = load_screenshot_json(dir.file("interop.json"));
  expect_screenshot_json(ja, particles, "soa");
  EXPECT_NE(ja.at("render").at("path").get<std::string>().find("interop"), std::string::npos) << ja.dump(2);
  // The draw's GPU time from timer queries, and the interop share counting the pack kernel's GPU time.
  EXPECT_GT(ja.at("frame").at("render_gpu_ms").get<double>(), 0.0) << ja.at("frame").dump();
  EXPECT_GT(ja.at("frame").at("interop_share_of_frame").get<double>(),
            ja.at("frame").at("upload_share_of_frame").get<double>())
      << ja.at("frame").dump();

  const std::string copy_png = dir.file("copy.png");
  const ProcessResult b = run_cuda_headless(copy_png, particles, {"--no-interop"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  expect_panel_and_particles(copy_png, kWidth, kHeight);
  const auto jb = load_screenshot_json(dir.file("copy.json"));
  EXPECT_NE(jb.at("render").at("path").get<std::string>().find("copy"), std::string::npos) << jb.dump(2);
  ASSERT_FALSE(jb.at("notices").empty()) << "the copy path must show a notice";
  EXPECT_NE(jb.at("notices").dump().find("--no-interop"), std::string::npos) << jb.at("notices").dump();
}

}  // namespace
}  // namespace coalesce::testing
