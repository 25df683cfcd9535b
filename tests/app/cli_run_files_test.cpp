// A run's outputs are never its own inputs (issue 19, docs/reliability.md "Inputs and outputs"), through the
// real executable: every output, sidecars and a clip's frames folder included, is matched against every file
// the run reads by identity (hard links and symlinks count). Each case uses fresh random names and contents and
// checks the exit code (2), the one line naming both flags, that no work started, and every file's bytes after.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app/bench_json_fixture.h"
#include "tests/app/run_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;
using Args = std::vector<std::string>;

// A fresh name: a random stem of letters and digits, so no case passes by a name the code special-cases.
std::string random_name(TestRng& rng, const std::string& extension) {
  const char* alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string stem;
  for (int i = rng.uniform_int(1, 12); i > 0; --i) stem += alphabet[rng.uniform_int(0, 35)];
  return stem + extension;
}

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A valid scene file whose name may say anything: the reader goes by content.
std::string scene_text(TestRng& rng) {
  return "initial = \"plummer\"\nparticles = " + std::to_string(rng.uniform_int(8, 200)) + "\nseed = " +
         std::to_string(rng.uniform_int(1, 1000000)) + "\n";
}

// A valid N x 7 float32 state of random particles.
std::string state_bytes(TestRng& rng) {
  const std::vector<Particle> particles = random_particles(rng, rng.uniform_int(2, 64));
  const std::vector<char> payload = bytes_of(particles);
  return npy_file_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(particles.size()) +
                            ", 7), }",
                        std::string(payload.begin(), payload.end()));
}

// A screenshot JSON that --camera-from accepts (schema /3, a preset scene, a camera), naming `state` if given.
std::string shot_json(TestRng& rng, const std::string& state = "") {
  nlohmann::json settings = {{"scene", "plummer"}, {"layout", "soa"}};
  if (state.empty())
    settings["particles"] = rng.uniform_int(8, 200);
  else
    settings["state_file"] = state;
  return nlohmann::json{{"schema", "coalesce-screenshot/3"},
                        {"settings", settings},
                        {"camera",
                         {{"yaw_degrees", rng.uniform(-180, 180)},
                          {"pitch_degrees", rng.uniform(-80, 80)},
                          {"distance", rng.uniform(1, 10)},
                          {"target", {0.0, 0.0, 0.0}}}}}
      .dump();
}

// Exit 2, exactly one stderr line, starting "coalesce: ", holding every needle; nothing on stdout (no work ran).
void expect_refused(const ProcessResult& r, const std::vector<std::string>& needles) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("coalesce: ", 0), 0u) << lines[0];
  for (const std::string& needle : needles) EXPECT_NE(lines[0].find(needle), std::string::npos) << lines[0];
  EXPECT_EQ(r.out, "") << "the work started before the outputs were checked";
}

// Every file in `dir`, with its bytes: compared before and after a refused run.
std::map<std::string, std::string> snapshot(const TempDir& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
    const std::string name = fs::relative(entry.path(), dir.path()).string();
    files[name] = entry.is_regular_file() ? read_file(entry.path().string()) : std::string("<not a file>");
  }
  return files;
}

Args steps(const std::vector<std::string>& more) {
  Args args{"--backend", "cpu", "--steps", "1000000000"};  // refused at once, or this would time out
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(CliRunFiles, SaveStateOverTheSceneFileIsRefused) {
  TestRng rng;
  TempDir dir;
  const std::string scene = dir.file(random_name(rng, rng.uniform_int(0, 1) ? ".toml" : ".npy"));
  write_bytes(scene, scene_text(rng));
  const auto before = snapshot(dir);
  expect_refused(run_coalesce(steps({"--scene", scene, "--save-state", scene}), 30),
                 {"--save-state", "--scene", scene, "which this run reads"});
  EXPECT_EQ(snapshot(dir), before);
}

TEST(CliRunFiles, HardLinksAndSymlinksToAnInputAreTheInput) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file(random_name(rng, ".npy"));
  write_bytes(state, state_bytes(rng));
  const std::string hard = dir.file(random_name(rng, "-hard.npy"));
  const std::string soft = dir.file(random_name(rng, "-soft.npy"));
  fs::create_hard_link(state, hard);
  fs::create_symlink(state, soft);
  const auto before = snapshot(dir);
  for (const std::string& out : {state, hard, soft}) {
    SCOPED_TRACE(out);
    expect_refused(run_coalesce(steps({"--load-state", state, "--save-state", out}), 30),
                   {"--save-state", "--load-state", "which this run reads"});
  }
  // The other way round: the input named through the link, the output by its real name.
  expect_refused(run_coalesce(steps({"--load-state", soft, "--save-state", state}), 30), {"--load-state"});
  EXPECT_EQ(snapshot(dir), before);
  EXPECT_TRUE(fs::is_symlink(soft));
}

TEST(CliRunFiles, TheNonFiniteCopyIsAnOutputToo) {
  TestRng rng;
  TempDir dir;
  const std::string stem = random_name(rng, "");
  const std::string scene = dir.file(stem + ".nonfinite.npy");  // where a NaN state of stem.npy would go
  write_bytes(scene, scene_text(rng));
  const auto before = snapshot(dir);
  expect_refused(run_coalesce(steps({"--scene", scene, "--save-state", dir.file(stem + ".npy")}), 30),
                 {"--save-state's non-finite copy", "--scene", "give --save-state another path"});
  EXPECT_EQ(snapshot(dir), before);
}

TEST(CliRunFiles, ScreenshotSidecarOverAnInputIsRefused) {
  TestRng rng;
  TempDir dir;
  const std::string stem = dir.file(random_name(rng, ""));
  // A scene file and a state file that happen to carry the sidecar's name.
  write_bytes(stem + ".json", rng.uniform_int(0, 1) ? scene_text(rng) : state_bytes(rng));
  const bool as_scene = read_file(stem + ".json").rfind("\x93NUMPY", 0) != 0;
  const auto before = snapshot(dir);
  const ProcessResult r = run_coalesce(
      {"--headless", "--frames", "1", as_scene ? "--scene" : "--load-state", stem + ".json", "--screenshot",
       stem + ".png"},
      30);
  expect_refused(r, {"--screenshot's JSON", as_scene ? "--scene" : "--load-state", "give --screenshot another path"});
  EXPECT_EQ(snapshot(dir), before);
}

TEST(CliRunFiles, CameraFromFileAndTheFilesItNamesAreInputs) {
  TestRng rng;
  TempDir dir;
  const std::string stem = dir.file(random_name(rng, ""));
  const std::string state = dir.file(random_name(rng, "-state.npy"));
  write_bytes(state, state_bytes(rng));
  write_bytes(stem + ".json", shot_json(rng));
  write_bytes(stem + "-state.json", shot_json(rng, state));
  const auto before = snapshot(dir);
  // The shot being restored is the new shot's sidecar.
  expect_refused(run_coalesce({"--headless", "--frames", "1", "--camera-from", stem + ".json", "--screenshot",
                               stem + ".png"},
                              30),
                 {"--screenshot's JSON", "--camera-from", stem + ".json"});
  // A clip recorded into a folder: its JSON goes beside the folder, over the shot.
  expect_refused(run_coalesce({"--headless", "--camera-from", stem + ".json", "--record", stem,
                               "--record-seconds", "1"},
                              30),
                 {"--record's JSON", "--camera-from"});
  // The state the shot names is an input of the run too.
  expect_refused(run_coalesce({"--headless", "--frames", "1", "--camera-from", stem + "-state.json",
                               "--save-state", state},
                              30),
                 {"--save-state", "the state file --camera-from restored", state});
  EXPECT_EQ(snapshot(dir), before);
}

TEST(CliRunFiles, NothingGoesInsideTheClipFolder) {
  TestRng rng;
  TempDir dir;
  const std::string clip = dir.file(random_name(rng, ""));
  fs::create_directory(clip);
  for (const std::string& inside :
       {clip + "/frame-000000.png", clip + "/frame-" + std::to_string(rng.uniform_int(100000, 999999)) + ".png",
        clip + "/" + random_name(rng, ".png")}) {
    SCOPED_TRACE(inside);
    expect_refused(run_coalesce({"--headless", "--frames", "10", "--record", clip, "--screenshot", inside}, 30),
                   {"--screenshot", "inside --record's folder"});
    EXPECT_TRUE(fs::is_empty(clip));
  }
}

TEST(CliRunFiles, BenchOutputsOverItsSavedRunsAreRefused) {
  TestRng rng;
  TempDir dir;
  SyntheticRun run;
  run.rows = random_rows(rng, rng.uniform_int(1, 6));
  // A saved run whose name ends in .svg: the plot would replace the run it draws.
  const std::string saved = dir.file(random_name(rng, ".svg"));
  write_run(saved, run);
  const std::string other = dir.file(random_name(rng, "-b.json"));
  write_run(other, run);
  const std::string linked = dir.file(random_name(rng, "-link.svg"));
  fs::create_hard_link(other, linked);
  const auto before = snapshot(dir);
  expect_refused(run_coalesce({"bench", "--plot", saved, "--from", saved}, 30), {"--plot", "--from"});
  expect_refused(run_coalesce({"bench", "--compare", saved, other, "--json", other}, 30), {"--json", "--compare"});
  expect_refused(run_coalesce({"bench", "--plot", linked, "--from", other}, 30), {"--plot", "--from"});
  EXPECT_EQ(snapshot(dir), before);
}

TEST(CliRunFiles, TwoOutputsThatAreOneFileByHardLinkAreRefused) {
  TestRng rng;
  TempDir dir;
  const std::string json = dir.file(random_name(rng, ".json"));
  write_bytes(json, "{}");
  const std::string plot = dir.file(random_name(rng, ".svg"));
  fs::create_hard_link(json, plot);
  const auto before = snapshot(dir);
  expect_refused(run_coalesce({"bench", "--backend", "cpu", "--particles", "256", "--repeats", "1", "--json", json,
                               "--plot", plot, "--no-counters"},
                              30),
                 {"--plot", "--json", "same file"});
  EXPECT_EQ(snapshot(dir), before);
}

TEST(CliRunFiles, ASidecarReplacesOnlyAnEarlierSidecarOfItsKind) {
  TestRng rng;
  TempDir dir;
  const std::string stem = dir.file(random_name(rng, ""));
  // The user's own file where the sidecar would go: random bytes, or JSON of another kind.
  const std::vector<std::string> theirs = {
      std::string(static_cast<std::size_t>(rng.uniform_int(1, 300)), static_cast<char>(rng.uniform_int(32, 126))),
      nlohmann::json{{"schema", "coalesce-clip/1"}, {"n", rng.uniform_int(0, 9)}}.dump(),
      nlohmann::json{{"data", rng.uniform_int(0, 1000)}}.dump()};
  for (const std::string& bytes : theirs) {
    write_bytes(stem + ".json", bytes);
    const auto before = snapshot(dir);
    expect_refused(run_coalesce({"--headless", "--frames", "1", "--screenshot", stem + ".png"}, 30),
                   {"--screenshot's JSON", "already exists", "move that file"});
    EXPECT_EQ(snapshot(dir), before);
  }
  // A clip folder's JSON: the same care.
  write_bytes(stem + "-clip.json", theirs[0]);
  const auto before = snapshot(dir);
  expect_refused(run_coalesce({"--headless", "--record", stem + "-clip", "--record-seconds", "1"}, 30),
                 {"--record's JSON", "already exists"});
  EXPECT_EQ(snapshot(dir), before);
}

}  // namespace
}  // namespace coalesce::testing
