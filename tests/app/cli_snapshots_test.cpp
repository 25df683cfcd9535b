// --snapshot-every K DIR and --monitor-every K through the real executable on the CPU backend: the series
// is read back file by file, the index matches the files, each file is the state a plain run reaches at its
// step, and a stop signal leaves a whole series and says so (issue 33).
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/state_file.h"
#include "tests/app/run_process.h"
#include "tests/app/series_runs.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;

TEST(CliSnapshots, TenSnapshotsReadBackAndTheIndexMatchesTheFiles) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(16, 200);
  const int every = rng.uniform_int(1, 4);
  const std::string seed = std::to_string(rng.engine()());
  const std::string series = dir.file("snaps");
  const std::string final_state = dir.file("final.npy");
  const ProcessResult r =
      run_coalesce(with(plummer_run(n, seed), {"--steps", std::to_string(10 * every), "--snapshot-every",
                                               std::to_string(every), series + "/", "--monitor-every",
                                               std::to_string(every), "--save-state", final_state}));
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("10 snapshots in " + series + "/"), std::string::npos) << r.out;

  const nlohmann::json index = read_index(series);
  EXPECT_EQ(index.at("schema"), "coalesce-snapshots/1");
  EXPECT_EQ(index.at("format"), "npy");
  EXPECT_EQ(index.at("every"), every);
  EXPECT_EQ(index.at("run").at("particles"), n);
  const double dt = index.at("run").at("dt");
  const nlohmann::json& rows = index.at("snapshots");
  ASSERT_EQ(rows.size(), 10u) << index.dump(2);
  std::vector<std::string> listed = {"index.json"};
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const nlohmann::json& row = rows[k];
    const std::uint64_t step = (k + 1) * static_cast<std::uint64_t>(every);
    SCOPED_TRACE("snapshot " + std::to_string(k) + ", step " + std::to_string(step));
    EXPECT_EQ(row.at("step"), step);
    EXPECT_DOUBLE_EQ(row.at("time").get<double>(), static_cast<double>(step) * dt);
    const std::string file = row.at("file");
    listed.push_back(file);
    const LoadedState loaded = load_state_file(series + "/" + file, StateFormat::Npy, Precision::Fp32);
    EXPECT_EQ(loaded.contents.records.size(), static_cast<std::size_t>(n));
    // The index's momentum is the file's: sum m v over its records.
    double px = 0;
    for (const ParticleF64& p : loaded.contents.records) px += p.mass * p.vx;
    EXPECT_NEAR(row.at("momentum")[0].get<double>(), px, 1e-9) << row.dump();
    EXPECT_TRUE(row.at("energy").at("total").is_number()) << row.dump();
    EXPECT_TRUE(row.at("angular_momentum").is_array()) << row.dump();
    EXPECT_TRUE(row.at("virial_ratio").is_number()) << row.dump();
    // The monitor printed the same step.
    EXPECT_NE(r.out.find("coalesce: step " + std::to_string(step) + " (t "), std::string::npos) << r.out;
  }
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(files_in(series), listed) << "the folder holds exactly the files the index lists";
  // The last snapshot is the final state, bit for bit.
  EXPECT_TRUE(npy_payload(series + "/" + rows.back().at("file").get<std::string>()) ==
              npy_payload(final_state));

  // A snapshot is the state a plain run reaches at its step.
  const int k = rng.uniform_int(0, 9);
  const std::string plain = dir.file("plain.npy");
  const ProcessResult p = run_coalesce(
      with(plummer_run(n, seed), {"--steps", std::to_string((k + 1) * every), "--save-state", plain}));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(npy_payload(series + "/" + rows[k].at("file").get<std::string>()) == npy_payload(plain))
      << "snapshot " << k << " differs from a plain run of " << (k + 1) * every << " steps (n=" << n
      << ", seed=" << seed << ")";
}

TEST(CliSnapshots, EachFormatWritesItsFilesAndListsThem) {
  TestRng rng;
  const int n = rng.uniform_int(8, 64);
  const std::string seed = std::to_string(rng.engine()());
  for (const auto& [format, extension] : std::vector<std::pair<std::string, std::string>>{
           {"npy", ".npy"}, {"tipsy", ".tipsy"}, {"tipsy-native", ".tipsy"}, {"hdf5", ".hdf5"}}) {
    SCOPED_TRACE(format);
    TempDir dir;
    const std::string series = dir.file("s");
    const ProcessResult r = run_coalesce(
        with(plummer_run(n, seed), {"--steps", "3", "--snapshot-every", "1", series, "--format", format}));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json index = read_index(series);
    EXPECT_EQ(index.at("format"), format);
    std::vector<std::string> listed = {"index.json"};
    for (const nlohmann::json& row : index.at("snapshots")) {
      const std::string file = row.at("file");
      EXPECT_EQ(fs::path(file).extension().string(), extension);
      for (const nlohmann::json& f : row.at("files")) listed.push_back(f);
      const LoadedState loaded =
          load_state_file(series + "/" + file, *parse_state_format(format), Precision::Fp32);
      EXPECT_EQ(loaded.contents.records.size(), static_cast<std::size_t>(n));
      for (std::size_t i = 0; i < loaded.contents.ids.size(); ++i) ASSERT_EQ(loaded.contents.ids[i], i);
    }
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(files_in(series), listed);
  }
}

TEST(CliSnapshots, AFolderThatHoldsFilesIsRefusedAndKeepsThem) {
  TestRng rng;
  TempDir dir;
  const std::string series = dir.file("taken");
  fs::create_directory(series);
  const std::string mine = series + "/snapshot-00000001.npy";
  const std::string text = "mine " + std::to_string(rng.engine()());
  std::ofstream(mine) << text;
  const ProcessResult r =
      run_coalesce(with(plummer_run(16, "1"), {"--steps", "2", "--snapshot-every", "1", series}));
  expect_one_line(r, 2, {"--snapshot-every " + series, "already holds files"});
  EXPECT_EQ(read_file(mine), text);
  EXPECT_EQ(files_in(series), std::vector<std::string>{"snapshot-00000001.npy"});
}

TEST(CliSnapshots, BadCombinationsAreRefusedBeforeAnyWork) {
  TempDir dir;
  const std::string series = dir.file("s");
  expect_one_line(run_coalesce(with(plummer_run(16, "1"), {"--steps", "5", "--snapshot-every", "6", series})),
                  2, {"--snapshot-every 6 writes nothing in --steps 5"});
  expect_one_line(run_coalesce(with(plummer_run(16, "1"), {"--steps", "5", "--snapshot-every", series})), 2,
                  {"--snapshot-every needs two values, K DIR"});
  expect_one_line(run_coalesce(with(plummer_run(16, "1"), {"--steps", "5", "--format", "tipsy"})), 2,
                  {"--format names the format of state files"});
  expect_one_line(run_coalesce(with(plummer_run(16, "1"),
                                    {"--steps", "5", "--save-state", dir.file("a.npy"), "--format", "hdf5"})),
                  2, {"names a npy file, but --format says hdf5"});
  EXPECT_FALSE(fs::exists(series)) << "a refused run creates no folder";
  fs::create_directory(series);  // empty: the series may go there, but no other output
  expect_one_line(run_coalesce(with(plummer_run(16, "1"), {"--steps", "5", "--snapshot-every", "1", series,
                                                           "--save-state", series + "/x.npy"})),
                  2, {"is inside --snapshot-every's folder", "which receives the snapshots"});
  EXPECT_TRUE(fs::is_empty(series));
}

// A stop signal lets the snapshot in progress and the index finish: every file the index lists is whole,
// the folder holds nothing else, and the last line says the series is complete.
TEST(CliSnapshots, AStopSignalLeavesAWholeSeriesAndSaysSo) {
  TestRng rng;
  TempDir dir;
  const std::string series = dir.file("s");
  const int n = rng.uniform_int(500, 1500);
  ChildSetup stop;
  stop.on_started = [&](pid_t pid) {
    if (!wait_for_signal_handler(pid, SIGINT, 20)) return;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {  // a few snapshots in, then Ctrl-C
      if (fs::exists(series + "/index.json") && files_in(series).size() >= 4) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ::kill(pid, SIGINT);
  };
  const ProcessResult r = run_coalesce(
      with(plummer_run(n, "3"), {"--steps", "1000000000", "--snapshot-every", "1", series}), 60, stop);
  EXPECT_EQ(r.exit_code, 130) << r.err;
  EXPECT_NE(r.out.find("the series is complete up to the stop: "), std::string::npos) << r.out;
  const nlohmann::json index = read_index(series);
  std::vector<std::string> listed = {"index.json"};
  for (const nlohmann::json& row : index.at("snapshots")) {
    listed.push_back(row.at("file"));
    EXPECT_EQ(load_state_file(series + "/" + listed.back(), StateFormat::Npy, Precision::Fp32)
                  .contents.records.size(),
              static_cast<std::size_t>(n));
  }
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(files_in(series), listed) << "no temporary or unlisted file left";
  EXPECT_NE(r.out.find(std::to_string(index.at("snapshots").size()) + " snapshots in "), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace coalesce::testing
