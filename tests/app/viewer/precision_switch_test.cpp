// The live precision switch (issue 21): fp32 -> fp64 -> fp32 through the viewer's own frame loop and its P
// key (in-process, Mesa's headless EGL) gives back the same bits when nothing stepped; a notice counts the
// values rounding changed; the sweep over precisions fills Compare with both precisions' rows and returns;
// the JSON records the precision and --camera-from restores it; on a GPU, fp64 that does not fit is
// refused in a notice and the run goes on in fp32.
#include <gtest/gtest.h>

#include <imgui.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <map>
#include <string>
#include <vector>

#include "app/viewer/viewer_app.h"
#include "app/viewer/viewer_simulation.h"
#include "render/headless_context.h"
#include "sim/byte_counts.h"
#include "sim/layout_storage.h"
#include "sim/scene.h"
#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/cuda_skip.h"
#include "tests/support/device_hog.h"
#include "tests/support/npy_writer.h"
#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

constexpr int kWidth = 1280;
constexpr int kHeight = 720;

// Mesa's headless EGL context, pressing `keys` (frame -> GLFW key code) through ImGui's input state as the
// GLFW backend would: the frame loop's own input path, in this process.
class ScriptedKeys final : public RenderTarget {
 public:
  explicit ScriptedKeys(std::map<int, int> keys) : m_context(kWidth, kHeight, -1), m_keys(std::move(keys)) {}

  bool should_close() const override { return false; }
  void poll_events() override {}
  FramebufferSize framebuffer_size() const override { return m_context.framebuffer_size(); }
  void bind_framebuffer() override { m_context.bind_framebuffer(); }
  void present() override { m_context.present(); }
  void imgui_init() override { m_context.imgui_init(); }
  void imgui_new_frame(float delta_seconds) override {
    m_context.imgui_new_frame(delta_seconds);
    ImGuiIO& io = ImGui::GetIO();
    for (bool& down : io.KeysDown) down = false;
    if (const auto key = m_keys.find(m_frame); key != m_keys.end()) io.KeysDown[key->second] = true;
    ++m_frame;
  }
  void imgui_shutdown() override { m_context.imgui_shutdown(); }
  bool headless() const override { return true; }
  std::string description() const override { return m_context.description(); }

 private:
  HeadlessContext m_context;
  std::map<int, int> m_keys;
  int m_frame = 0;
};

// The viewer's frame loop over `simulation` for `frames` frames with `keys`, then its screenshot JSON.
nlohmann::json run_with_keys(const Options& options, ViewerSimulation& simulation, std::map<int, int> keys,
                             int frames, const TempDir& dir) {
  ScriptedKeys target(std::move(keys));
  const std::string png = dir.file("keys.png");
  {
    ViewerApp app(options, target, simulation);
    ViewerRun run;
    run.frames = frames;
    run.screenshot = png;
    EXPECT_EQ(app.run(run), 0);
  }
  return load_screenshot_json(dir.file("keys.json"));
}

// 1234567 as "1,234,567", written here apart from the viewer's own.
std::string grouped(std::size_t value) {
  const std::string digits = std::to_string(value);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string exact_notice(const char* from, const char* to, std::size_t values) {
  return std::string("precision ") + from + " -> " + to + ": all " + grouped(values) + " values kept exactly";
}
std::string rounded_notice(std::size_t rounded, std::size_t values) {
  return "precision fp64 -> fp32: " + grouped(rounded) + " of " + grouped(values) +
         " values rounded to the nearest float";
}

std::vector<std::string> notices(const nlohmann::json& shot) {
  std::vector<std::string> out;
  for (const nlohmann::json& n : shot.at("notices")) out.push_back(n.at("text").get<std::string>());
  return out;
}

bool has(const std::vector<std::string>& lines, const std::string& line) {
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

std::string random_preset(TestRng& rng) {
  const std::vector<std::string> names = preset_names();
  return names[static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(names.size()) - 1))];
}

// A '<f8' state file of N random records, `inexact` of whose values no float holds.
std::string write_f64_state(TestRng& rng, const TempDir& dir, int n, double inexact_share,
                            std::size_t& inexact) {
  const std::vector<ParticleF64> records = random_particles_f64(rng, n, inexact_share, inexact);
  const std::string path = dir.file("wide.npy");
  write_npy(path, "<f8", "(" + std::to_string(n) + ", 7)", bytes_of(records));
  return path;
}

// Three steps, Space, then P twice: the state is the three-step state bit for bit (a re-generated or
// re-uploaded state would be the initial one).
TEST(PrecisionSwitch, PTwiceWhilePausedGivesBackTheSameBits) {
  TestRng rng;
  TempDir dir;
  Options options;
  options.backend = BackendChoice::Cpu;
  options.scene = random_preset(rng);
  options.particles = rng.uniform_int(512, 4096);
  options.layout = random_layout(rng);
  options.seed = static_cast<std::uint64_t>(rng.uniform_int(0, 1 << 30));
  ViewerSimulation reference(options);
  const std::vector<ParticleF64> initial = reference.backend().download_f64();
  for (int step = 0; step < 3; ++step) reference.advance();
  const std::vector<ParticleF64> stepped = reference.backend().download_f64();
  ASSERT_FALSE(bitwise_equal(stepped, initial)) << "three steps must move the particles";

  ViewerSimulation simulation(options);
  // Frames 0-2 step; Space on frame 3 pauses before its step; P, a frame with the key up, P again.
  const nlohmann::json shot =
      run_with_keys(options, simulation, {{3, GLFW_KEY_SPACE}, {5, GLFW_KEY_P}, {7, GLFW_KEY_P}}, 10, dir);
  ASSERT_EQ(simulation.step_count(), 3u);
  EXPECT_EQ(simulation.backend().precision(), Precision::Fp32);
  EXPECT_TRUE(bitwise_equal(simulation.backend().download_f64(), stepped))
      << options.scene << ", N = " << *options.particles << ", " << to_string(options.layout)
      << ": fp32 -> fp64 -> fp32 must be the identity";
  const std::size_t values = stepped.size() * kFieldsPerParticle;
  const std::vector<std::string> lines = notices(shot);
  EXPECT_TRUE(has(lines, exact_notice("fp32", "fp64", values))) << shot.at("notices").dump();
  EXPECT_TRUE(has(lines, exact_notice("fp64", "fp32", values))) << shot.at("notices").dump();
  EXPECT_EQ(shot.at("settings").at("precision"), "fp32");
  EXPECT_EQ(shot.at("simulation").at("step"), 3);
}

// From a '<f8' state: P rounds to fp32 in place, and the notice counts exactly the values that changed;
// P again widens exactly (the rounded values, not the file's).
TEST(PrecisionSwitch, FromFp64TheNoticeCountsTheValuesRoundingChanged) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(256, 3000);
  std::size_t inexact = 0;
  Options options;
  options.backend = BackendChoice::Cpu;
  options.precision = Precision::Fp64;
  options.layout = random_layout(rng);
  options.load_state = write_f64_state(rng, dir, n, rng.uniform(0.05f, 0.95f), inexact);
  ViewerSimulation simulation(options);
  const std::vector<ParticleF64> wide = simulation.backend().download_f64();
  ASSERT_EQ(count_rounded_to_float(wide), inexact);
  const nlohmann::json shot =
      run_with_keys(options, simulation, {{0, GLFW_KEY_SPACE}, {2, GLFW_KEY_P}}, 5, dir);
  ASSERT_EQ(simulation.step_count(), 0u);
  EXPECT_EQ(simulation.backend().precision(), Precision::Fp32);
  std::vector<Particle> rounded(wide.size());
  for (std::size_t i = 0; i < wide.size(); ++i) rounded[i] = record_cast<float>(wide[i]);
  EXPECT_TRUE(bitwise_equal(simulation.backend().download(), rounded)) << "each value rounded to nearest";
  const std::size_t values = wide.size() * kFieldsPerParticle;
  EXPECT_TRUE(has(notices(shot), rounded_notice(inexact, values))) << shot.at("notices").dump();
  EXPECT_EQ(shot.at("settings").at("precision"), "fp32");
}

// ViewerSimulation alone, many states: the count is Backend::set_precision's, the notice says "rounded" when
// it is above 0 and "kept exactly" otherwise, and asking for the precision it has changes nothing.
TEST(PrecisionSwitch, TheNoticeSaysExactOrRoundedWhateverTheState) {
  TestRng rng;
  TempDir dir;
  for (int trial = 0; trial < 12; ++trial) {
    const int n = rng.uniform_int(1, 2000);
    const double share = trial % 3 == 0 ? 0.0 : rng.uniform(0.0f, 1.0f);
    std::size_t inexact = 0;
    Options options;
    options.backend = BackendChoice::Cpu;
    options.precision = Precision::Fp64;
    options.layout = random_layout(rng);
    options.load_state = write_f64_state(rng, dir, n, share, inexact);
    ViewerSimulation simulation(options);
    const std::size_t values = static_cast<std::size_t>(n) * kFieldsPerParticle;
    const PrecisionChange same = simulation.set_precision(Precision::Fp64);
    EXPECT_TRUE(same.notice.empty()) << same.notice;
    const PrecisionChange narrow = simulation.set_precision(Precision::Fp32);
    EXPECT_FALSE(narrow.refused);
    EXPECT_EQ(narrow.rounded, inexact);
    EXPECT_EQ(narrow.notice,
              inexact > 0 ? rounded_notice(inexact, values) : exact_notice("fp64", "fp32", values));
    const std::vector<Particle> narrowed = simulation.backend().download();
    const PrecisionChange widen = simulation.set_precision(Precision::Fp64);
    EXPECT_EQ(widen.notice, exact_notice("fp32", "fp64", values));
    EXPECT_EQ(widen.rounded, 0u);
    EXPECT_TRUE(bitwise_equal(simulation.backend().download(), narrowed)) << "widening is exact";
  }
}

// --sweep K --sweep-precisions from a random layout and precision: Compare has every layout's row in both
// precisions (the panel draws them), the run ends where it began, and the two switches said what they did.
TEST(PrecisionSwitch, SweepOverPrecisionsFillsBothPrecisionsRowsAndReturns) {
  TestRng rng;
  TempDir dir;
  const int per_step = rng.uniform_int(2, 3);
  const int particles = rng.uniform_int(2048, 4096);
  const std::string layout(to_string(random_layout(rng)));
  const std::string precision(to_string(random_precision(rng)));
  const std::string png = dir.file("sweep.png");
  const int frames = 2 * static_cast<int>(kLayoutCount) * per_step + 3;
  const ProcessResult r = run_process(
      viewer_command({true,
                      "cpu",
                      "swirl",
                      particles,
                      layout,
                      frames,
                      kWidth,
                      900,
                      png,
                      {"--precision", precision, "--sweep", std::to_string(per_step), "--sweep-precisions"}}),
      {"DISPLAY", "WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_panel_and_particles(png, kWidth, 900);
  const nlohmann::json j = load_screenshot_json(dir.file("sweep.json"));
  for (Precision p : kAllPrecisions) {
    for (Layout l : kAllLayouts) {
      const nlohmann::json& row =
          j.at("compare_by_precision").at(std::string(to_string(p))).at(std::string(to_string(l)));
      for (const char* kernel : {"integrate", "pack", "forces"})
        EXPECT_GT(row.at(kernel).at("milliseconds").get<double>(), 0.0)
            << to_string(l) << " " << to_string(p);
    }
  }
  EXPECT_EQ(j.at("compare"), j.at("compare_by_precision").at(precision))
      << "compare is the run's precision's";
  EXPECT_EQ(j.at("settings").at("layout"), layout) << "the sweep returns to the user's layout";
  EXPECT_EQ(j.at("settings").at("precision"), precision) << "and to the user's precision";
  // One switch there and one back; stepping in fp64 leaves values no float holds, so the way down rounds.
  const std::size_t values = static_cast<std::size_t>(particles) * kFieldsPerParticle;
  const std::vector<std::string> lines = notices(j);
  EXPECT_TRUE(has(lines, exact_notice("fp32", "fp64", values))) << j.at("notices").dump();
  const auto down = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.rfind("precision fp64 -> fp32: ", 0) == 0;
  });
  ASSERT_NE(down, lines.end()) << j.at("notices").dump();
  EXPECT_NE(down->find(" of " + grouped(values) + " values rounded to the nearest float"), std::string::npos)
      << *down;
}

// The JSON records the precision (settings and each live kernel row, whose byte formula is the precision's),
// and --camera-from puts it back, naming it in its line; a --precision given on the command line wins.
TEST(PrecisionSwitch, JsonRecordsThePrecisionAndCameraFromRestoresIt) {
  TestRng rng;
  TempDir dir;
  const int particles = rng.uniform_int(1024, 3000);
  const Layout layout = random_layout(rng);
  const std::string first = dir.file("wide.png");
  ProcessResult r = run_process(viewer_command({true,
                                                "cpu",
                                                "swirl",
                                                particles,
                                                std::string(to_string(layout)),
                                                4,
                                                kWidth,
                                                kHeight,
                                                first,
                                                {"--precision", "fp64"}}),
                                {"DISPLAY", "WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json shot = load_screenshot_json(dir.file("wide.json"));
  EXPECT_EQ(shot.at("settings").at("precision"), "fp64");
  const ForceMethod method = shot.at("settings").at("solver") == "attractors" ? ForceMethod::Attractors
                                                                              : ForceMethod::OneSidedAllPairs;
  for (const auto& [name, row] : shot.at("kernels").items()) {
    EXPECT_EQ(row.at("precision"), "fp64") << name;
    if (name == "integrate") {
      EXPECT_EQ(row.at("byte_formula"),
                kernel_byte_formula(KernelKind::Integrate, layout, method, Precision::Fp64).text());
    }
    // The forces' formula counts the scratch its launches moved (issue 30): the JSON's bytes and its text agree.
    if (name == "forces" && row.at("scratch_bytes_per_launch").get<double>() > 0) {
      EXPECT_NE(row.at("byte_formula").get<std::string>().find("(written, then read back)"), std::string::npos)
          << row.dump();
    }
  }
  EXPECT_TRUE(shot.at("compare_by_precision").at("fp32").at(std::string(to_string(layout))).empty())
      << "nothing ran in fp32";

  const std::string again = dir.file("again.png");
  r = run_process({coalesce_executable(), "--headless", "--backend", "cpu", "--camera-from",
                   dir.file("wide.json"), "--frames", "2", "--screenshot", again},
                  {"DISPLAY", "WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("precision fp64"), std::string::npos)
      << "the restored-fields line names it: " << r.err;
  EXPECT_EQ(load_screenshot_json(dir.file("again.json")).at("settings").at("precision"), "fp64");

  const std::string kept = dir.file("kept.png");
  r = run_process({coalesce_executable(), "--headless", "--backend", "cpu", "--camera-from",
                   dir.file("wide.json"), "--precision", "fp32", "--frames", "2", "--screenshot", kept},
                  {"DISPLAY", "WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("the command line's --precision kept"), std::string::npos) << r.err;
  EXPECT_EQ(load_screenshot_json(dir.file("kept.json")).at("settings").at("precision"), "fp32");
}

// GPU: a device too full for the fp64 state refuses the switch in one notice, and the run keeps its fp32
// state bit for bit (Backend::set_precision puts it back).
TEST(PrecisionSwitch, Fp64ThatDoesNotFitIsRefusedAndTheRunStaysInFp32) {
  COALESCE_REQUIRE_CUDA();
  TestRng rng;
  Options options;
  options.backend = BackendChoice::Cuda;
  options.scene = "swirl";
  options.particles = rng.uniform_int(1 << 20, 1 << 21);
  options.layout = random_layout(rng);
  ViewerSimulation simulation(options);
  simulation.advance();
  const std::vector<ParticleF64> before = simulation.backend().download_f64();
  // The backend holds two fp32 buffers (state, scratch) and fp64 needs two of twice the size: with half an
  // fp32 buffer free, the switch finds 2.5 fp32 buffers free where it needs 4, and the way back fits.
  const std::size_t buffer = max_state_bytes(Precision::Fp32, *options.particles);
  std::string notice;
  {
    DeviceHog hog(buffer / 2);
    ASSERT_GT(hog.held_bytes(), 0u);
    const PrecisionChange change = simulation.set_precision(Precision::Fp64);
    notice = change.notice;
    EXPECT_TRUE(change.refused) << change.notice << " (free: " << device_free_bytes() << " bytes)";
  }
  EXPECT_EQ(notice.rfind("precision fp32 -> fp64 refused, still fp32: ", 0), 0u) << notice;
  EXPECT_EQ(notice.find('\n'), std::string::npos) << "one line: " << notice;
  EXPECT_EQ(simulation.backend().precision(), Precision::Fp32);
  EXPECT_TRUE(bitwise_equal(simulation.backend().download_f64(), before));
  simulation.advance();  // and it still steps
  EXPECT_EQ(simulation.step_count(), 2u);
}

}  // namespace
}  // namespace coalesce::testing
