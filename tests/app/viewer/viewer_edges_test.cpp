// The viewer at its edges, through the real executable on Mesa: --save-state when it closes, Ctrl-C,
// a window that cannot open, and a screenshot JSON that counts its frames and names a loaded state.
#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "render/gl_driver.h"
#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> headless(int particles, int frames, std::vector<std::string> more = {}) {
  return viewer_command({true, "cpu", "cube", particles, "", frames, 320, 240, "", std::move(more)});
}

TEST(ViewerEdges, HeadlessRunSavesTheStateItEndsWith) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(100, 2000);
  const int frames = rng.uniform_int(2, 6);
  const std::string state = dir.file("end.npy");
  const ProcessResult r = run_process(headless(n, frames, {"--save-state", state}), {"DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("state at step " + std::to_string(frames) + " saved to " + state), std::string::npos)
      << r.err;
  EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28);

  // Loading it back and saving again after 0 further steps would be --steps 0; here the viewer steps
  // on, and its JSON names the state file rather than a seed it never used.
  const std::string png = dir.file("shot.png");
  const ProcessResult again = run_process(
      {coalesce_executable(), "--headless", "--backend", "cpu", "--scene", "cube", "--load-state", state,
       "--frames", std::to_string(frames), "--width", "320", "--height", "240", "--screenshot", png},
      {"DISPLAY"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto j = load_screenshot_json(dir.file("shot.json"));
  ASSERT_FALSE(j.is_discarded());
  // Named from the JSON's folder (the same folder here), where --camera-from looks for it.
  EXPECT_EQ(j.at("settings").at("state_file"), "end.npy");
  EXPECT_TRUE(j.at("settings").at("seed").is_null()) << j.at("settings").dump();
  EXPECT_EQ(j.at("frame").at("frames"), frames) << "the captured frame is the last of --frames";
  EXPECT_EQ(j.at("simulation").at("step"), frames);
}

TEST(ViewerEdges, CtrlCClosesTheViewerSavesAndExits130) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(100, 2000);
  const std::string state = dir.file("state.npy");
  ChildSetup interrupt;
  interrupt.on_started = [](pid_t pid) {
    if (wait_for_sigint_handler(pid, 60)) ::kill(pid, SIGINT);
  };
  const ProcessResult r =
      run_process(headless(n, 100000000, {"--save-state", state}), {"DISPLAY"}, {}, 120, interrupt);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.err.find("saved to " + state), std::string::npos) << r.err;
  EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28);
}

// A display that does not exist: GLFW fails, and the user sees our one line, not GLFW's first.
TEST(ViewerEdges, WindowThatCannotOpenIsOneLine) {
  const ProcessResult r = run_process({coalesce_executable(), "--backend", "cpu", "--particles", "1024"},
                                      {"WAYLAND_DISPLAY"}, {"DISPLAY=:97531"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("coalesce: cannot open a window", 0), 0u) << lines[0];
  EXPECT_NE(lines[0].find("--headless"), std::string::npos) << lines[0];
}

// The notice names the driver when the window's OpenGL is not NVIDIA's (Mesa under Xvfb, say).
TEST(ViewerEdges, InteropNoticeNamesANonNvidiaDriver) {
  const GlDriver mesa{"Mesa", "llvmpipe (LLVM 15.0.6, 256 bits)"};
  EXPECT_FALSE(mesa.is_nvidia());
  const std::string notice = interop_unavailable_notice(mesa, "cudaGraphicsGLRegisterBuffer: unknown error");
  EXPECT_NE(notice.find("llvmpipe (LLVM 15.0.6, 256 bits) (Mesa), not the NVIDIA driver"), std::string::npos)
      << notice;
  EXPECT_NE(notice.find("--headless"), std::string::npos) << notice;
  EXPECT_EQ(notice.find("unknown error"), std::string::npos) << "CUDA's words do not explain this case";
  const GlDriver nvidia{"NVIDIA Corporation", "NVIDIA H100 80GB HBM3/PCIe/SSE2"};
  EXPECT_TRUE(nvidia.is_nvidia());
  EXPECT_NE(
      interop_unavailable_notice(nvidia, "cudaGraphicsGLRegisterBuffer: unknown error").find("unknown error"),
      std::string::npos);
}

}  // namespace
}  // namespace coalesce::testing
