// The viewer's snapshot series (--snapshot-every K DIR; key N in input_test.cpp), headless on the CPU
// backend: the files land on the multiples of K, the index lists exactly them, and the series' last file is
// the state
// --save-state writes when the run ends on such a step.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/state_file.h"
#include "tests/app/viewer/viewer_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;

TEST(ViewerSnapshots, TheFlagWritesASeriesOnTheMultiplesOfK) {
  TestRng rng;
  TempDir dir;
  const int every = rng.uniform_int(2, 5);
  const int n = rng.uniform_int(64, 1024);
  const std::string series = dir.file("snaps"), state = dir.file("final.npy");
  ViewerArgs a;
  a.scene = "plummer";
  a.particles = n;
  a.frames = every * rng.uniform_int(2, 4);
  a.extra = {"--snapshot-every", std::to_string(every), series, "--save-state", state};
  const ProcessResult r = run_process(viewer_command(a), {"DISPLAY", "WAYLAND_DISPLAY"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("coalesce: snapshots: "), std::string::npos) << r.err;

  std::ifstream in(series + "/index.json");
  const nlohmann::json index = nlohmann::json::parse(in);
  EXPECT_EQ(index.at("run").at("viewer"), true);
  const nlohmann::json& rows = index.at("snapshots");
  ASSERT_FALSE(rows.empty()) << index.dump(2);
  std::vector<std::string> listed = {"index.json"};
  std::uint64_t last = 0;
  for (const nlohmann::json& row : rows) {
    const std::uint64_t step = row.at("step");
    EXPECT_EQ(step % static_cast<std::uint64_t>(every), 0u) << row.dump();
    EXPECT_GT(step, last) << "steps ascend";
    last = step;
    listed.push_back(row.at("file"));
    const LoadedState loaded =
        load_state_file(series + "/" + listed.back(), StateFormat::Npy, Precision::Fp32);
    EXPECT_EQ(loaded.contents.records.size(), static_cast<std::size_t>(n));
  }
  std::vector<std::string> present;
  for (const auto& entry : fs::directory_iterator(series))
    present.push_back(entry.path().filename().string());
  std::sort(listed.begin(), listed.end());
  std::sort(present.begin(), present.end());
  EXPECT_EQ(present, listed);
  // "state at step S saved to ...": when S is the last snapshot's step, the two files hold the same state.
  const std::size_t at = r.err.find("state at step ");
  ASSERT_NE(at, std::string::npos) << r.err;
  const std::uint64_t saved_step = std::stoull(r.err.substr(at + 14));
  if (saved_step == last)
    EXPECT_TRUE(npy_payload(state) == npy_payload(series + "/" + rows.back().at("file").get<std::string>()));
  else
    EXPECT_LT(saved_step - last, static_cast<std::uint64_t>(every)) << "a snapshot was skipped";
}

}  // namespace
}  // namespace coalesce::testing
