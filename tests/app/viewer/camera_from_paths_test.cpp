// A shot names its scene and state files relative to its own folder, where --camera-from looks for them
// (issue 19 §3), so a shot taken from one directory restores the same files when read from another.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/process.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;

// coalesce run with `args` from the directory `cwd`, as a user in that folder would.
ProcessResult run_in(const std::string& cwd, const std::string& args) {
  return run_process({"/bin/sh", "-c", "cd '" + cwd + "' && exec '" + coalesce_executable() + "' " + args}, {}, {},
                     120);
}

TEST(CameraFromPaths, AShotTakenElsewhereRestoresTheSameSceneFile) {
  TestRng rng;
  TempDir dir;
  fs::create_directories(dir.file("work/shots"));
  fs::create_directories(dir.file("elsewhere"));
  const int particles = rng.uniform_int(16, 300);
  std::ofstream(dir.file("work/my.toml")) << "initial = \"plummer\"\nparticles = " << particles << "\nseed = "
                                          << rng.uniform_int(1, 100000) << "\n";
  // A decoy of the same name where the second run starts: the old reader took this one.
  std::ofstream(dir.file("elsewhere/my.toml")) << "initial = \"cube\"\nparticles = " << particles + 1 << "\n";

  const ProcessResult shot = run_in(dir.file("work"), "--headless --frames 1 --scene my.toml --screenshot shots/a.png");
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  const nlohmann::json a = nlohmann::json::parse(read_file(dir.file("work/shots/a.json")));
  EXPECT_EQ(a["settings"]["scene_source"], "../my.toml") << "named from the JSON's folder";

  const ProcessResult again =
      run_in(dir.file("elsewhere"), "--headless --frames 1 --camera-from ../work/shots/a.json --screenshot b.png");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const nlohmann::json b = nlohmann::json::parse(read_file(dir.file("elsewhere/b.json")));
  EXPECT_EQ(b["settings"]["particles"], particles) << "the decoy was loaded: " << again.err;
  EXPECT_EQ(b["settings"]["scene"], a["settings"]["scene"]);
}

}  // namespace
}  // namespace coalesce::testing
