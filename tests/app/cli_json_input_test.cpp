// The JSON inputs (--camera-from, bench --compare, bench --plot --from) and files that report size 0,
// through the real executable: hostile JSON costs memory near its size, newer schemas are refused in one
// line, --camera-from takes the paths a shot names from the shot's folder, says why a file it names cannot
// be used and lists every field it did not restore. Each case checks the exit code, the line, and the files.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/app/bench_json_fixture.h"
#include "tests/app/run_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using Args = std::vector<std::string>;

constexpr int kQuick = 60;  // seconds: a refusal takes milliseconds and a headless frame under a second

bool names(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The names in `dir` and their bytes: what a run must leave as it found it.
std::vector<std::pair<std::string, std::string>> snapshot(const fs::path& dir) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    files.emplace_back(entry.path().string(), entry.is_regular_file() ? read_file(entry.path().string()) : "");
  std::sort(files.begin(), files.end());
  return files;
}

std::string random_word(TestRng& rng) {
  std::string word;
  for (int i = rng.uniform_int(4, 10); i > 0; --i) word += static_cast<char>('a' + rng.uniform_int(0, 25));
  return word;
}

// A screenshot JSON as the viewer writes it, small enough to render in a moment.
json small_shot(TestRng& rng) {
  return {{"schema", "coalesce-screenshot/3"},
          {"backend", "cpu (2 threads)"},
          {"image", {{"width", rng.uniform_int(64, 200)}, {"height", rng.uniform_int(64, 200)}, {"panel_visible", false}}},
          {"settings",
           {{"layout", "soa"}, {"pack_variant", "tiled"}, {"solver", "all-pairs"}, {"scene", "disk"},
            {"scene_source", "disk"}, {"state_file", nullptr}, {"particles", rng.uniform_int(64, 512)},
            {"draw", "points"}, {"draw_limit", 0}, {"seed", rng.uniform_int(1, 1000)}, {"dt", 0.001},
            {"softening", 0.05}, {"attractors", 0}, {"brightness", 1.0}, {"paused", false}}},
          {"camera",
           {{"yaw_degrees", 30.0}, {"pitch_degrees", 20.0}, {"distance", 6.0}, {"target", {0.0, 0.0, 0.0}},
            {"orbit_degrees_per_second", 0.0}, {"field_of_view_y_degrees", 45.0}, {"option", "--camera 30,20,6,0,0,0"}}},
          {"simulation", {{"step", 0}, {"time", 0.0}}},
          {"frame", {{"fps", 60.0}, {"frame_ms", 16.6}}},
          {"kernels", {{"forces", {{"milliseconds", 0.1}}}}}};
}

void write_json(const std::string& path, const json& doc) {
  std::ofstream(path, std::ios::binary) << doc.dump(2);
}

// A headless frame restored from `shot` (run in `cwd`, so relative paths mean what a user's would), and
// the summary line --camera-from printed. Without the viewer the run stops after that line, saying why.
struct Restored {
  ProcessResult run;
  std::string summary;
};
Restored run_camera_from(const std::string& cwd, const std::string& shot, const Args& extra = {}) {
  std::string command = "cd '" + cwd + "' && exec '" + coalesce_executable() +
                        "' --headless --frames 1 --camera-from '" + shot + "' --screenshot again.png";
  for (const std::string& arg : extra) command += " '" + arg + "'";
  Restored r{run_process({"/bin/sh", "-c", command}, {}, {}, kQuick), ""};
  for (const std::string& line : r.run.err_lines())
    if (line.rfind("coalesce: --camera-from ", 0) == 0) r.summary = line;
  return r;
}

void expect_ran(const Restored& r) {
  EXPECT_NE(r.summary, "") << r.run.err;
  if (viewer_built()) {
    EXPECT_EQ(r.run.exit_code, 0) << r.run.err;
  } else {
    EXPECT_EQ(r.run.exit_code, 2) << r.run.err;
  }
}

// The peak memory of a run that reads nothing, in KiB (ru_maxrss counts the forked test until exec): the
// bench runs' small-file baseline, the files being a few KiB.
long baseline_rss_kib() {
  return run_coalesce({"--version"}, kQuick).max_rss_kib;
}

// What a run reading a `file_bytes` file may cost beyond the same run on a small file: the bytes a few
// times over (the token being read, the value kept, a string's growth) and a fixed allowance. A DOM of the
// whole file costs some 40 times its size (a 100 MB nested array reached 4.0 GB before the bounded reader).
long memory_bound_kib(long small_file_run_kib, std::size_t file_bytes) {
  return small_file_run_kib + 4 * static_cast<long>(file_bytes / 1024) + 64 * 1024;
}

std::size_t hostile_size(TestRng& rng) {
  // Large enough that a whole-file DOM (some 40 times the size) is far past the bound, small enough for
  // the sanitizer stage; bench files may be 64 MiB at most.
  return static_cast<std::size_t>(rng.uniform_int(16, 24)) << 20;
}

// `[1,1,...]` of about `bytes` bytes.
std::string flat_array(std::size_t bytes) {
  std::string text = "[";
  text.reserve(bytes + 2);
  while (text.size() < bytes) text += "1,";
  text.back() = ']';
  return text;
}

// `doc` with `raw` (any JSON text) as the value of its top-level key `key`.
std::string with_raw(const json& doc, const std::string& key, const std::string& raw) {
  json marked = doc;
  marked[key] = "@@RAW@@";
  const std::string text = marked.dump();
  const std::size_t at = text.find("\"@@RAW@@\"");
  return text.substr(0, at) + raw + text.substr(at + 9);
}

void write_text_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

TEST(CliJsonInput, HostileCameraFromFilesCostMemoryNearTheirSize) {
  TestRng rng;
  TempDir dir;
  const std::size_t size = hostile_size(rng);
  const json shot = small_shot(rng);
  json settings_huge = shot;
  settings_huge["settings"]["scene_source"] = std::string(size, 'x');
  json target_huge = shot;
  target_huge["camera"]["target"] = "@@RAW@@";
  const std::string target_text = target_huge.dump();
  const std::size_t at = target_text.find("\"@@RAW@@\"");
  struct Case {
    const char* what;
    std::string text;
    int exit_code;  // -1: a run (0 with the viewer, 2 without)
    std::string says;
  };
  const Case cases[] = {
      {"a deep nested array", std::string(size, '['), 2, "is nested deeper than 64 levels"},
      {"a flat array under a key it reads", target_text.substr(0, at) + flat_array(size) + target_text.substr(at + 9),
       -1, "the camera (its yaw_degrees, pitch_degrees, distance or target (three numbers) is missing)"},
      {"a flat array under a key it ignores", with_raw(shot, "frames", flat_array(size)), -1, "restored scene disk"},
      {"a huge string under a key it reads", settings_huge.dump(), -1, " bytes is no path)"},
  };
  // The bound counts from the same run on a small shot: a headless frame costs memory of its own.
  write_json(dir.file("small.json"), shot);
  const long small_run_kib = run_camera_from(dir.path().string(), dir.file("small.json")).run.max_rss_kib;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string path = dir.file("hostile.json");
    write_text_file(path, c.text);
    const auto start = std::chrono::steady_clock::now();
    const Restored r = run_camera_from(dir.path().string(), path);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (c.exit_code == 2) {
      expect_one_line(r.run, 2, {"--camera-from '" + path + "'", c.says});
    } else {
      expect_ran(r);
      EXPECT_TRUE(names(r.summary, c.says)) << r.summary.substr(0, 600);
      EXPECT_LT(r.summary.size(), 4096u) << "the summary quotes the file at length";
    }
    EXPECT_LT(r.run.max_rss_kib, memory_bound_kib(small_run_kib, size)) << size << "-byte file; " << seconds << " s";
    EXPECT_EQ(read_file(path), c.text) << "the input changed";
    fs::remove(path);
    fs::remove(dir.file("again.png"));
    fs::remove(dir.file("again.json"));
  }
}

TEST(CliJsonInput, HostileBenchFilesCostMemoryNearTheirSize) {
  TestRng rng;
  TempDir dir;
  const std::size_t size = hostile_size(rng);
  SyntheticRun run;
  run.rows = random_rows(rng, rng.uniform_int(1, 20));
  const json good = run_json(run);
  write_text_file(dir.file("good.json"), good.dump(2));
  struct Case {
    const char* what;
    std::string text;
    int exit_code;
    std::string says;
  };
  const Case cases[] = {
      {"a deep nested array", "{\"rows\": " + std::string(size, '['), 2, "is nested deeper than 64 levels"},
      {"a flat array under a key it reads", with_raw(good, "rows", flat_array(size)), 2, "rows[0] is not an object"},
      {"a flat array under a key it ignores", with_raw(good, "extra", flat_array(size)), 0, ""},
      {"a huge string under a key it ignores", with_raw(good, "note", "\"" + std::string(size, 'y') + "\""), 0, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const std::string path = dir.file("hostile.json");
    write_text_file(path, c.text);
    const auto before = snapshot(dir.path());
    const auto start = std::chrono::steady_clock::now();
    const ProcessResult r = run_coalesce({"bench", "--compare", path, dir.file("good.json")}, kQuick);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (c.exit_code == 2) {
      expect_one_line(r, 2, {"--compare '" + path + "'", c.says});
    } else {
      EXPECT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(names(r.out, "same")) << "every row compared with itself: " << r.out.substr(0, 2000);
    }
    EXPECT_LT(r.max_rss_kib, memory_bound_kib(baseline_rss_kib(), size)) << size << "-byte file; " << seconds << " s";
    EXPECT_TRUE(snapshot(dir.path()) == before) << "a file changed";
    fs::remove(path);
  }
}

TEST(CliJsonInput, FilesOfANewerMajorSchemaAreRefusedInOneLine) {
  TestRng rng;
  TempDir dir;
  SyntheticRun run;
  run.rows = random_rows(rng, rng.uniform_int(1, 10));
  json bench = run_json(run);
  write_json(dir.file("good.json"), bench);
  const std::string newer_bench = "coalesce-bench/" + std::to_string(rng.uniform_int(3, 99));
  bench["schema"] = newer_bench;
  write_json(dir.file("newer.json"), bench);
  json shot = small_shot(rng);
  const std::string newer_shot = "coalesce-screenshot/" + std::to_string(rng.uniform_int(4, 99));
  shot["schema"] = newer_shot;
  write_json(dir.file("shot.json"), shot);
  const std::string newer_clip = "coalesce-clip/" + std::to_string(rng.uniform_int(2, 99));
  shot["schema"] = newer_clip;
  write_json(dir.file("clip.json"), shot);
  const auto before = snapshot(dir.path());

  const std::string fix = "(read it with the coalesce that wrote it, or a newer one)";
  for (const char* flag : {"--compare", "--from"}) {
    const Args args = std::string(flag) == "--compare"
                          ? Args{"bench", "--compare", dir.file("good.json"), dir.file("newer.json")}
                          : Args{"bench", "--plot", dir.file("plot.svg"), "--from", dir.file("newer.json")};
    expect_one_line(run_coalesce(args, kQuick), 2,
                    {std::string(flag) + " '" + dir.file("newer.json") + "': written by a newer coalesce: schema " +
                         newer_bench + ", and this one reads up to coalesce-bench/2 " + fix});
  }
  for (const auto& [file, schema, reads] : {std::tuple{"shot.json", newer_shot, "coalesce-screenshot/3"},
                                            std::tuple{"clip.json", newer_clip, "coalesce-clip/1"}}) {
    const Restored r = run_camera_from(dir.path().string(), dir.file(file));
    expect_one_line(r.run, 2,
                    {"--camera-from '" + dir.file(file) + "': written by a newer coalesce: schema " + schema +
                     ", and this one reads up to " + reads + " " + fix});
  }
  EXPECT_TRUE(snapshot(dir.path()) == before) << "a file changed or appeared";

  // The majors this coalesce writes are read.
  shot["schema"] = "coalesce-clip/1";
  write_json(dir.file("clip.json"), shot);
  expect_ran(run_camera_from(dir.path().string(), dir.file("clip.json")));
  const ProcessResult same = run_coalesce({"bench", "--compare", dir.file("good.json"), dir.file("good.json")}, kQuick);
  EXPECT_EQ(same.exit_code, 0) << same.err;
}

// dir/shots/ holds the shot and what it names; dir/cwd/ is where the user runs coalesce, with a decoy of
// each named file, which the old code took instead and said it had restored.
struct ShotFolders {
  TempDir dir;
  std::string shots = dir.file("shots"), cwd = dir.file("cwd");
  ShotFolders() {
    fs::create_directory(shots);
    fs::create_directory(cwd);
  }
};

TEST(CliJsonInput, CameraFromTakesRelativePathsFromTheShotsFolder) {
  TestRng rng;
  ShotFolders f;
  const std::string scene = "scene-" + random_word(rng) + ".toml", name = "beside-" + random_word(rng);
  const int particles = rng.uniform_int(64, 300);
  write_text_file(f.shots + "/" + scene,
                  "name = \"" + name + "\"\ninitial = \"cube\"\nparticles = " + std::to_string(particles) + "\n");
  write_text_file(f.cwd + "/" + scene, "name = \"decoy\"\ninitial = \"plummer\"\nparticles = 999\n");
  json shot = small_shot(rng);
  shot["settings"]["scene_source"] = scene;
  shot["settings"]["particles"] = particles;
  write_json(f.shots + "/shot.json", shot);

  const Restored r = run_camera_from(f.cwd, "../shots/shot.json");
  expect_ran(r);
  EXPECT_TRUE(names(r.summary, "restored scene ../shots/" + scene + ",")) << r.summary;
  if (viewer_built()) {  // the scene that was loaded, as the new shot records it
    const json again = json::parse(read_file(f.cwd + "/again.json"));
    EXPECT_EQ(again["settings"]["scene"], name);
    EXPECT_EQ(again["settings"]["scene_source"], "../shots/" + scene);
  }
  EXPECT_EQ(read_file(f.cwd + "/" + scene).rfind("name = \"decoy\"", 0), 0u);

  // An absolute path stays as it is; a preset stays a preset though a file of its name lies beside the shot.
  shot["settings"]["scene_source"] = f.shots + "/" + scene;
  write_json(f.shots + "/abs.json", shot);
  EXPECT_TRUE(names(run_camera_from(f.cwd, f.shots + "/abs.json").summary, "restored scene " + f.shots + "/" + scene + ","));
  write_text_file(f.shots + "/cube", "not toml at all");
  shot["settings"]["scene_source"] = "cube";
  write_json(f.shots + "/preset.json", shot);
  EXPECT_TRUE(names(run_camera_from(f.cwd, "../shots/preset.json").summary, "restored scene cube,"));

  // A state file, likewise: the one beside the shot.
  const std::string state = "state-" + random_word(rng) + ".npy";
  const int rows = rng.uniform_int(8, 64);
  write_npy(f.shots + "/" + state, "<f4", "(" + std::to_string(rows) + ", 7)", bytes_of(random_particles(rng, rows)));
  shot["settings"]["state_file"] = state;
  write_json(f.shots + "/state.json", shot);
  const Restored s = run_camera_from(f.cwd, "../shots/state.json");
  expect_ran(s);
  EXPECT_TRUE(names(s.summary, "state ../shots/" + state)) << s.summary;
  if (viewer_built()) {
    EXPECT_EQ(json::parse(read_file(f.cwd + "/again.json"))["settings"]["particles"], rows);
  }
}

TEST(CliJsonInput, CameraFromSaysWhyAFileItNamesCannotBeUsed) {
  TestRng rng;
  ShotFolders f;
  const std::string fifo = "pipe-" + random_word(rng) + ".toml", folder = "dir-" + random_word(rng) + ".npy",
                    absent = "absent-" + random_word(rng) + ".toml";
  ASSERT_EQ(::mkfifo((f.shots + "/" + fifo).c_str(), 0644), 0);
  fs::create_directory(f.shots + "/" + folder);
  for (const std::string& decoy : {fifo, folder, absent}) write_text_file(f.cwd + "/" + decoy, "decoy");
  struct Case {
    std::string key, named, says;
  };
  for (const Case& c : {Case{"scene_source", fifo, "the scene ../shots/" + fifo + " (../shots/" + fifo +
                                                       " is a FIFO, not a regular file"},
                        Case{"state_file", folder, "the initial state ../shots/" + folder + " (../shots/" + folder +
                                                       " is a directory"},
                        Case{"scene_source", absent, "the scene ../shots/" + absent + " (../shots/" + absent +
                                                         ": no such file"}}) {
    json shot = small_shot(rng);
    shot["settings"][c.key] = c.named;
    write_json(f.shots + "/shot.json", shot);
    const auto before = snapshot(f.shots);
    const Restored r = run_camera_from(f.cwd, "../shots/shot.json");
    expect_ran(r);
    EXPECT_TRUE(names(r.summary, "not restored: ")) << r.summary;
    EXPECT_TRUE(names(r.summary, c.says)) << r.summary;
    EXPECT_TRUE(snapshot(f.shots) == before);
  }
}

TEST(CliJsonInput, CameraFromListsEveryFieldItDidNotRestore) {
  TestRng rng;
  TempDir dir;
  json shot = small_shot(rng);
  const std::string backend = rng.uniform_int(0, 1) ? "cuda" : "cpu";
  shot["backend"] = backend + " (" + random_word(rng) + ")";
  std::vector<std::string> unknown;
  for (const char* block : {"settings", "image", "camera", "simulation"}) {
    const std::string key = "new_" + random_word(rng);
    shot[block][key] = rng.uniform_int(0, 9);
    unknown.push_back(std::string(block) + "." + key + " (unknown to this coalesce)");
  }
  shot["settings"]["softening"] = "soft";
  shot["image"]["panel_visible"] = 1;
  shot["frames"] = json::array({{{"frame", 0}, {"kernels", json::array()}}});  // a clip's measurements
  write_json(dir.file("shot.json"), shot);

  const Restored r = run_camera_from(dir.path().string(), dir.file("shot.json"));
  expect_ran(r);
  const std::string not_restored = r.summary.substr(r.summary.find("not restored: "));
  for (const std::string& entry : unknown) EXPECT_TRUE(names(not_restored, entry)) << entry << "\n" << r.summary;
  EXPECT_TRUE(names(not_restored, "settings.softening (not a number in the file)")) << r.summary;
  EXPECT_TRUE(names(not_restored, "image.panel_visible (not true or false in the file)")) << r.summary;
  EXPECT_TRUE(names(not_restored, "backend " + backend + " (give --backend " + backend + " to choose it)"))
      << r.summary;
  // Measurements and what other keys already say are no settings: not listed.
  for (const char* quiet : {"kernels", "frame", "fps", "field_of_view", "option", "attractors", "time"})
    EXPECT_FALSE(names(not_restored, quiet)) << quiet << "\n" << r.summary;
  // A backend the command line chose is not the file's to name.
  EXPECT_FALSE(names(run_camera_from(dir.path().string(), dir.file("shot.json"), {"--backend", "cpu"}).summary,
                     "backend " + backend + " ("));
}

// /proc files report size 0 but have content: read as what they are, never as an empty scene.
TEST(CliJsonInput, FilesThatReportSizeZeroAreNotReadAsEmpty) {
  for (const std::string path : {"/proc/cpuinfo", "/proc/self/status"}) {
    if (!fs::exists(path)) continue;
    // Read through: the TOML parser sees its first line (an empty file would run the default scene).
    expect_one_line(run_coalesce({"--backend", "cpu", "--steps", "1", "--scene", path}, kQuick), 2,
                    {path + ":1: TOML syntax error"});
    // A .npy is checked against its size before it is read: refused, honestly.
    expect_one_line(run_coalesce({"--backend", "cpu", "--steps", "1", "--load-state", path}, kQuick), 2,
                    {"--load-state " + path + " reports size 0 but has content", "copy it to a regular file first"});
    // JSON: the first byte is what is wrong, not an end of input.
    expect_one_line(run_coalesce({"bench", "--compare", path, path}, kQuick), 2,
                    {"--compare '" + path + "': is not JSON (line 1, column 1:"});
  }
}

}  // namespace
}  // namespace coalesce::testing
