// The capture flags: --record, --record-fps, --record-seconds, --camera, --orbit, --brightness, --no-panel
// parse into Options or fail as one line naming the flag; --camera-from refuses files that are no coalesce
// screenshot or clip JSON, and restores what the file says through the option table (real executable).
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/camera_from.h"
#include "app/cli/cli.h"
#include "tests/app/run_process.h"
#include "tests/app/usage_error.h"
#include "tests/support/float_text.h"
#include "tests/support/temp_dir.h"
#include "sim/errors.h"
#include "sim/limits.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

bool names(const std::string& message, const std::string& text) {
  return message.find(text) != std::string::npos;
}

TEST(CliCapture, RandomGoodValuesLandInTheirFields) {
  TestRng rng;
  for (int trial = 0; trial < 200; ++trial) {
    const int fps = rng.uniform_int(1, 240);
    const float seconds = rng.uniform(0.01f, 3600.0f);
    const float yaw = rng.uniform(-720.0f, 720.0f), pitch = rng.uniform(-88.8f, 88.8f);
    const float distance = rng.uniform(0.01f, 1000.0f), tx = rng.uniform(-50.0f, 50.0f);
    const float orbit = rng.uniform(-360.0f, 360.0f), brightness = rng.uniform(0.1f, 4.0f);
    const bool with_target = rng.uniform_int(0, 1) == 1;
    std::string camera = float_text(yaw) + "," + float_text(pitch) + "," + float_text(distance);
    if (with_target) camera += "," + float_text(tx) + ",0,-1.5";
    const Options o = parse_arguments({"--record", "out/clip.mp4", "--record-fps", std::to_string(fps),
                                       "--record-seconds", float_text(seconds), "--camera", camera, "--orbit",
                                       float_text(orbit), "--brightness", float_text(brightness),
                                       "--no-panel"});
    ASSERT_EQ(o.record, "out/clip.mp4");
    ASSERT_EQ(o.record_fps, fps);
    ASSERT_NEAR(*o.record_seconds, seconds, 1e-3 * seconds);
    ASSERT_TRUE(o.camera.has_value()) << camera;
    EXPECT_NEAR(o.camera->yaw_degrees, yaw, 1e-6 * std::max(1.0f, std::fabs(yaw))) << camera;
    EXPECT_NEAR(o.camera->pitch_degrees, pitch, 1e-6 * std::max(1.0f, std::fabs(pitch))) << camera;
    EXPECT_NEAR(o.camera->distance, distance, 1e-5f * distance) << camera;
    EXPECT_FLOAT_EQ(o.camera->target[0], with_target ? tx : 0.0f) << camera;
    EXPECT_FLOAT_EQ(o.camera->target[2], with_target ? -1.5f : 0.0f) << camera;
    EXPECT_NEAR(o.orbit_degrees_per_second, orbit, 1e-4f * std::max(1.0f, std::fabs(orbit)));
    EXPECT_NEAR(o.brightness, brightness, 1e-5f * brightness);
    EXPECT_TRUE(o.panel_hidden);
  }
}

TEST(CliCapture, BadValuesAndCombinationsAreOneLineNamingTheFlag) {
  struct Case {
    Args args;
    std::string says;
  };
  const Case cases[] = {
      {{"--camera", "10,20"}, "--camera takes yaw,pitch,distance or yaw,pitch,distance,tx,ty,tz"},
      {{"--camera", "10,20,5,1"}, "3 or 6"},
      {{"--camera", "10,95,5"}, "--camera's pitch (degrees) 95 is out of range"},
      {{"--camera", "10,-88.9,5"}, "--camera's pitch (degrees) -88.9 is out of range"},
      {{"--camera", "10,20,0"}, "--camera's distance 0 is out of range"},
      {{"--camera", "nan,20,5"}, "--camera's yaw (degrees)"},
      {{"--camera", "10,,5"}, "--camera"},
      {{"--record-fps", "0", "--record", "x.mp4"}, "--record-fps 0 is too small"},
      {{"--record-seconds", "-1", "--record", "x.mp4"}, "--record-seconds -1 is out of range"},
      {{"--record-seconds", "10"}, "--record-seconds sets up a clip, but no --record PATH was given"},
      {{"--record-fps", "24"}, "--record-fps sets up a clip, but no --record PATH was given"},
      {{"--headless", "--record", "x.mp4"}, "--headless --record needs --record-seconds S"},
      {{"--steps", "10", "--record", "x.mp4"}, "--record needs frames to render, but --steps runs with no window"},
      {{"--steps", "10", "--camera-from", "a.json"}, "--camera-from needs frames to render"},
      {{"--brightness", "9"}, "--brightness 9 is out of range"},
      {{"--orbit", "1e9"}, "--orbit 1e9 is out of range"},
      {{"bench", "--record", "x.mp4"}, "--record is not an option of coalesce bench"},
  };
  for (const Case& c : cases) {
    const std::string message = usage_error(c.args);
    EXPECT_TRUE(names(message, c.says)) << c.args[0] << " " << (c.args.size() > 1 ? c.args[1] : "") << ": '"
                                       << message << "'";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  // A headless clip of known length needs no --frames.
  EXPECT_EQ(usage_error({"--headless", "--record", "x.mp4", "--record-seconds", "2"}), "");
}

TEST(CliCapture, HelpListsTheFlagsAndTheKey) {
  const std::string help = usage_text();
  for (const char* flag : {"--record PATH", "--record-fps FPS", "--record-seconds S", "--camera YAW,PITCH,DIST",
                           "--orbit DEG_PER_S", "--camera-from JSON", "--brightness X", "--no-panel"})
    EXPECT_TRUE(names(help, flag)) << flag;
  EXPECT_TRUE(names(help, "V record")) << "the key that starts a clip";
}

// A screenshot JSON as the viewer writes it (the keys --camera-from reads), with random settings.
nlohmann::json random_shot(TestRng& rng) {
  const bool all_pairs = rng.uniform_int(0, 1) == 1;
  const nlohmann::json forces = all_pairs ? nlohmann::json(rng.uniform_int(0, 1) ? "mutual" : "one-sided") : nullptr;
  nlohmann::json shot = {
      {"schema", "coalesce-screenshot/3"},
      {"image", {{"width", rng.uniform_int(64, 4000)}, {"height", rng.uniform_int(64, 3000)}, {"panel_visible", false}}},
      {"settings",
       {{"layout", std::string(to_string(random_layout(rng)))},
        {"precision", std::string(to_string(random_precision(rng)))},
        {"pack_variant", "tiled"},
        {"solver", all_pairs ? "all-pairs" : "attractors"},
        {"forces", forces},
        {"scene", "disk"},
        {"scene_source", "disk"},
        {"state_file", nullptr},
        {"particles", rng.uniform_int(1, 1 << 24)},
        {"draw", "points"},
        {"draw_limit", rng.uniform_int(0, 1 << 22)},
        {"seed", rng.uniform_int(0, 1 << 30)},
        {"dt", rng.uniform(1e-5f, 1e-2f)},
        {"softening", rng.uniform(1e-3f, 0.5f)},
        {"brightness", rng.uniform(0.1f, 4.0f)},
        {"paused", false}}},
      {"camera",
       {{"yaw_degrees", rng.uniform(-180.0f, 180.0f) + 1.0 / 3.0},
        {"pitch_degrees", rng.uniform(-88.8f, 88.8f)},  // up to the orbit camera's clamp
        {"distance", rng.uniform(0.5f, 50.0f)},
        {"target", {rng.uniform(-1.0f, 1.0f), 0.0, 0.25}},
        {"orbit_degrees_per_second", 15.0}}},
      {"simulation", {{"step", rng.uniform_int(1, 1000)}, {"time", 0.5}}}};
  return shot;
}

TEST(CliCapture, CameraFromRestoresEverySettingExactlyAndKeepsGivenFlags) {
  TestRng rng;
  TempDir dir;
  for (int trial = 0; trial < 20; ++trial) {
    const nlohmann::json shot = random_shot(rng);
    const std::string path = dir.file("shot" + std::to_string(trial) + ".json");
    std::ofstream(path) << shot.dump();
    const bool give_particles = rng.uniform_int(0, 1) == 1;
    Args args{"--camera-from", path};
    if (give_particles) args.insert(args.end(), {"--particles", "777"});
    const CameraFromResult r = apply_camera_from(parse_arguments(args));
    const Options& o = r.options;
    const nlohmann::json& s = shot["settings"];
    EXPECT_EQ(to_string(o.layout), s["layout"].get<std::string>());
    EXPECT_EQ(to_string(o.precision), s["precision"].get<std::string>());
    EXPECT_EQ(method_info(*o.solver).solver_name, s["solver"].get<std::string>());
    // The scheme that ran, named, so an auto run's shot runs it again; attractors' null leaves auto.
    if (s["forces"].is_null())
      EXPECT_FALSE(o.forces.has_value());
    else
      EXPECT_EQ(o.forces ? std::string(method_info(*o.forces).forces_name) : "auto",
                s["forces"].get<std::string>());
    EXPECT_EQ(o.scene, "disk");
    EXPECT_EQ(*o.particles, give_particles ? 777 : s["particles"].get<int>());
    EXPECT_EQ(*o.seed, s["seed"].get<std::uint64_t>());
    EXPECT_EQ(*o.dt, s["dt"].get<float>());
    EXPECT_EQ(*o.softening, s["softening"].get<float>());
    EXPECT_EQ(o.brightness, s["brightness"].get<float>());
    EXPECT_EQ(*o.draw_limit, s["draw_limit"].get<int>());
    EXPECT_EQ(o.draw, DrawChoice::Points);
    EXPECT_EQ(o.width, shot["image"]["width"].get<int>());
    EXPECT_EQ(o.height, shot["image"]["height"].get<int>());
    EXPECT_TRUE(o.panel_hidden);
    // The camera exactly as written (angles are doubles end to end).
    ASSERT_TRUE(o.camera.has_value());
    EXPECT_EQ(o.camera->yaw_degrees, shot["camera"]["yaw_degrees"].get<double>());
    EXPECT_EQ(o.camera->pitch_degrees, shot["camera"]["pitch_degrees"].get<double>());
    EXPECT_EQ(o.camera->distance, shot["camera"]["distance"].get<float>());
    EXPECT_EQ(o.camera->target[0], shot["camera"]["target"][0].get<float>());
    // A screenshot's orbit is not replayed (its pose is where the orbit had turned it); a clip's would be.
    EXPECT_EQ(o.orbit_degrees_per_second, 0.0f);
    const std::string line = describe(r, path);
    EXPECT_TRUE(names(line, "not restored:")) << line;
    EXPECT_FALSE(names(line, "settings.forces")) << "a scheme or null is read, never listed: " << line;
    EXPECT_TRUE(names(line, "the simulated time")) << line;
    EXPECT_TRUE(names(line, "precision " + s["precision"].get<std::string>()))
        << "the summary names it: " << line;
    EXPECT_TRUE(names(line, "the orbit")) << line;
    EXPECT_EQ(names(line, "the command line's --particles kept"), give_particles) << line;
  }
}

TEST(CliCapture, CameraFromHostileValuesAreNotRestoredAndNothingElseThrows) {
  // Each field replaced by a wrong type or an out-of-range value: apply_camera_from either leaves it out,
  // saying so, or refuses the file with a UsageError; never another exception, never a value out of range.
  TestRng rng;
  TempDir dir;
  const std::vector<nlohmann::json> hostile = {nlohmann::json(1e300), nlohmann::json(-5), nlohmann::json(65536.5),
                                               nlohmann::json("text"), nlohmann::json(true), nlohmann::json(nullptr),
                                               nlohmann::json::array({1, 2}), nlohmann::json(-1e300)};
  const std::vector<std::pair<std::string, std::string>> fields = {
      {"settings", "particles"}, {"settings", "seed"},       {"settings", "dt"},     {"settings", "softening"},
      {"settings", "draw_limit"}, {"settings", "brightness"}, {"settings", "layout"}, {"image", "width"},
      {"camera", "yaw_degrees"}, {"camera", "pitch_degrees"}, {"camera", "distance"}, {"simulation", "step"},
      {"image", "panel_visible"}, {"settings", "paused"},     {"settings", "precision"}, {"settings", "forces"}};
  for (int trial = 0; trial < 200; ++trial) {
    nlohmann::json shot = random_shot(rng);
    const auto& field = fields[static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(fields.size()) - 1))];
    const nlohmann::json& value = hostile[static_cast<std::size_t>(rng.uniform_int(0, static_cast<int>(hostile.size()) - 1))];
    shot[field.first][field.second] = value;
    const std::string path = dir.file("hostile.json");
    std::ofstream(path, std::ios::trunc) << shot.dump();
    SCOPED_TRACE(field.first + "." + field.second + " = " + value.dump());
    try {
      const CameraFromResult r = apply_camera_from(parse_arguments({"--camera-from", path}));
      if (r.options.particles) {
        EXPECT_TRUE(*r.options.particles >= 1 && *r.options.particles <= kMaxParticles);
      }
      EXPECT_TRUE(r.options.brightness >= kMinBrightness && r.options.brightness <= kMaxBrightness);
      if (r.options.camera) {
        EXPECT_TRUE(std::fabs(r.options.camera->pitch_degrees) <= 88.81);
      }
      if (r.options.dt) {
        EXPECT_TRUE(kTimeStepRange.contains(*r.options.dt));
      }
    } catch (const UsageError&) {
      // a refusal in one line is fine
    } catch (const std::exception& e) {
      ADD_FAILURE() << "threw something else than a usage error: " << e.what();
    }
  }
}

TEST(CliCapture, CameraFromAClipReplaysItsOrbit) {
  TestRng rng;
  TempDir dir;
  nlohmann::json clip = random_shot(rng);
  clip["schema"] = "coalesce-clip/1";
  const std::string path = dir.file("clip.json");
  std::ofstream(path) << clip.dump();
  const CameraFromResult r = apply_camera_from(parse_arguments({"--camera-from", path}));
  EXPECT_EQ(r.options.orbit_degrees_per_second, 15.0f);
}

TEST(CliCapture, CameraFromRefusesWhatIsNoShotInOneLine) {
  TestRng rng;
  TempDir dir;
  std::ofstream(dir.file("text.json")) << "not json " << rng.uniform_int(0, 1000);
  std::ofstream(dir.file("other.json")) << R"({"schema": "coalesce-bench/2", "rows": []})";
  std::ofstream(dir.file("nosettings.json")) << R"({"schema": "coalesce-screenshot/3"})";
  ::mkfifo(dir.file("fifo.json").c_str(), 0644);
  struct Case {
    std::string file;
    std::string says;
  };
  for (const Case& c : {Case{"text.json", "not JSON"}, Case{"other.json", "not a coalesce screenshot or clip JSON"},
                        Case{"nosettings.json", "no settings block"}, Case{"fifo.json", "FIFO"},
                        Case{"absent.json", "absent.json"}}) {
    const ProcessResult r =
        run_coalesce({"--headless", "--frames", "2", "--camera-from", dir.file(c.file)}, 30);
    EXPECT_EQ(r.exit_code, 2) << c.file << ": " << r.err;
    ASSERT_EQ(r.err_lines().size(), 1u) << c.file << ": " << r.err;
    EXPECT_TRUE(names(r.err, c.says)) << c.file << ": " << r.err;
  }
}

}  // namespace
}  // namespace coalesce::testing
