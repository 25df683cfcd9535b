// The windowed path (GLFW) under xvfb-run: same screenshot checks as headless; the frame loop follows a
// resize and skips minimised frames; with no display and no --headless, one clear line and exit code 2.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "app/services/options.h"
#include "app/viewer/viewer_app.h"
#include "app/viewer/viewer_simulation.h"
#include "render/gl_api.h"
#include "render/glfw_window.h"
#include "render/render_target.h"
#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/test_random.h"
// glad first (render/gl_api.h): GLFW must not pull in the system GL header.
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

namespace coalesce::testing {
namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 900;

std::vector<std::string> under_xvfb(std::vector<std::string> command) {
  std::vector<std::string> full = {"xvfb-run", "-a", "-s", "-screen 0 1600x1000x24"};
  full.insert(full.end(), command.begin(), command.end());
  return full;
}

std::vector<std::string> windowed_command(const std::string& png, int particles, int frames) {
  return viewer_command({false, "cpu", "galaxies", particles, "soa", frames, kWidth, kHeight, png, {}});
}

TEST(Windowed, ScreenshotUnderXvfbShowsParticlesAndPanel) {
  if (!on_path("xvfb-run")) GTEST_SKIP() << "skipped: xvfb-run not installed (apt-get install xvfb xauth)";
  TestRng rng;
  const int particles = rng.uniform_int(2048, 6144);
  TempDir dir;
  const std::string png = dir.file("window.png");
  const ProcessResult r = run_process(under_xvfb(windowed_command(png, particles, 6)));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_panel_and_particles(png, kWidth, kHeight);
  const auto j = load_screenshot_json(dir.file("window.json"));
  expect_screenshot_json(j, particles, "soa");
  EXPECT_NE(j.at("render").at("target").get<std::string>().find("window (GLFW"), std::string::npos);
}

// Stands between the frame loop and the real window: resizes the window through GLFW between frames,
// reports 0 x 0 for three polls as a minimised window does (Xvfb has no window manager to honour
// glfwIconifyWindow), and records what each drawn frame did.
class ScriptedWindow final : public RenderTarget {
 public:
  explicit ScriptedWindow(GlfwWindow& window) : m_window(window) {}

  struct Frame {
    FramebufferSize framebuffer;  // the window's real framebuffer when the frame was presented
    int viewport_width = 0;       // the viewport the frame left set (the panel's, the whole framebuffer)
    int viewport_height = 0;
  };
  const std::vector<Frame>& frames() const { return m_frames; }
  int draws_while_minimised() const { return m_draws_while_minimised; }

  void poll_events() override {
    GLFWwindow* handle = glfwGetCurrentContext();  // the window's own: GlfwWindow made it current
    if (m_polls == 2) glfwSetWindowSize(handle, 640, 360);
    if (m_polls == 9) glfwSetWindowSize(handle, 1280, 720);
    m_minimised = m_polls >= 4 && m_polls < 7;
    ++m_polls;
    m_window.poll_events();
  }
  FramebufferSize framebuffer_size() const override {
    return m_minimised ? FramebufferSize{} : m_window.framebuffer_size();
  }
  void bind_framebuffer() override {
    m_draws_while_minimised += m_minimised;
    m_window.bind_framebuffer();
  }
  void present() override {
    GLint viewport[4] = {};
    glGetIntegerv(GL_VIEWPORT, viewport);
    m_frames.push_back({m_window.framebuffer_size(), viewport[2], viewport[3]});
    m_window.present();
  }
  bool should_close() const override { return m_window.should_close(); }
  void imgui_init() override { m_window.imgui_init(); }
  void imgui_new_frame(float delta_seconds) override { m_window.imgui_new_frame(delta_seconds); }
  void imgui_shutdown() override { m_window.imgui_shutdown(); }
  bool headless() const override { return false; }
  std::string description() const override { return m_window.description(); }

 private:
  GlfwWindow& m_window;
  int m_polls = 0;
  bool m_minimised = false;
  int m_draws_while_minimised = 0;
  std::vector<Frame> m_frames;
};

bool has_display() {
  const char* display = std::getenv("DISPLAY");
  return display && *display;
}

// The frame loop itself (ViewerApp on a real GlfwWindow): every drawn frame covers the window's size at
// that frame, the minimised frames draw nothing and do not count, and the screenshot has the final size.
TEST(Windowed, FrameLoopFollowsResizeAndMinimise) {
  if (!has_display()) {
    // This process has no display: run this one test again inside a fresh Xvfb.
    if (!on_path("xvfb-run")) GTEST_SKIP() << "skipped: xvfb-run not installed (apt-get install xvfb xauth)";
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    const ProcessResult r =
        run_process(under_xvfb({self, "--gtest_filter=Windowed.FrameLoopFollowsResizeAndMinimise"}));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("[       OK ] Windowed.FrameLoopFollowsResizeAndMinimise"), std::string::npos)
        << "the test did not run under Xvfb:\n"
        << r.out << r.err;
    return;
  }
  TestRng rng;
  Options options;
  options.backend = BackendChoice::Cpu;
  options.layout = random_layout(rng);
  options.particles = rng.uniform_int(1024, 4096);
  options.width = kWidth;
  options.height = kHeight;
  TempDir dir;
  const std::string png = dir.file("resized.png");
  constexpr int kFrames = 14;

  GlfwWindow window(kWidth, kHeight, "coalesce resize test");
  ViewerSimulation simulation(options);
  ScriptedWindow target(window);
  int code = -1;
  {
    ViewerApp app(options, target, simulation);  // GL objects die before the window
    ViewerRun run;
    run.frames = kFrames;
    run.screenshot = png;
    code = app.run(run);
  }
  EXPECT_EQ(code, 0);
  EXPECT_EQ(target.draws_while_minimised(), 0) << "the loop drew into a 0 x 0 framebuffer";
  ASSERT_EQ(target.frames().size(), static_cast<size_t>(kFrames)) << "minimised polls must not count";
  bool saw_small = false;
  for (size_t i = 0; i < target.frames().size(); ++i) {
    const ScriptedWindow::Frame& f = target.frames()[i];
    EXPECT_EQ(f.viewport_width, f.framebuffer.width) << "frame " << i;
    EXPECT_EQ(f.viewport_height, f.framebuffer.height) << "frame " << i;
    saw_small |= f.framebuffer.width == 640 && f.framebuffer.height == 360;
  }
  EXPECT_TRUE(saw_small) << "the window never drew at 640 x 360";
  const Picture picture = load_picture(png);
  EXPECT_EQ(picture.width, 1280);
  EXPECT_EQ(picture.height, 720);
  const auto j = load_screenshot_json(dir.file("resized.json"));
  EXPECT_EQ(j.at("image").at("width"), 1280) << j.at("image").dump();
}

TEST(Windowed, NoDisplayWithoutHeadlessIsOneLineAndExitTwo) {
  const ProcessResult r = run_process({coalesce_executable(), "--backend", "cpu", "--particles", "1024"},
                                      {"DISPLAY", "WAYLAND_DISPLAY"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "expected exactly one line: " << r.err;
  EXPECT_NE(r.err.find("--headless"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("GLFW"), std::string::npos)
      << "GLFW was initialised before the display check: " << r.err;
}

}  // namespace
}  // namespace coalesce::testing
