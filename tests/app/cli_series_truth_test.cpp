// Issue 41 through the real executable on the CPU backend: a snapshot series never writes over a file it did
// not write and stays in the folder it started in, stops at a state that went NaN or Inf, lists only whole
// snapshots when its index cannot be written; a loaded file's clock goes on; Tipsy's IDs live beside the
// real file; units are never guessed; and the messages the hostile review found wrong.
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/output_file.h"
#include "sim/state_file.h"
#include "tests/app/run_process.h"
#include "tests/app/series_runs.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The index's files plus index.json, sorted: what a whole series folder holds.
std::vector<std::string> listed_files(const nlohmann::json& index) {
  std::vector<std::string> listed = {"index.json"};
  for (const nlohmann::json& row : index.at("snapshots"))
    for (const nlohmann::json& file : row.at("files")) listed.push_back(file);
  std::sort(listed.begin(), listed.end());
  return listed;
}

// Waits (at most 60 s) until the series in `dir` has an index listing at least `rows` snapshots.
bool wait_for_rows(const std::string& dir, std::size_t rows) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::error_code error;
    if (fs::exists(dir + "/index.json", error)) {
      try {
        if (read_index(dir).at("snapshots").size() >= rows) return true;
      } catch (const std::exception&) {  // read while being replaced: try again
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return false;
}

// A state written by coalesce's own writer, with IDs and a time.
void save_state(const std::string& path, StateFormat format, const std::vector<Particle>& records,
                const std::vector<std::uint64_t>& ids, double time) {
  StateExtras extras;
  extras.ids = &ids;
  extras.time = time;
  save_state_file(check_output_path("test", path), format, records, extras);
}

std::vector<Particle> cluster(TestRng& rng, int n) {
  std::vector<Particle> records(static_cast<std::size_t>(n));
  for (Particle& p : records) {
    p = {rng.uniform(-1, 1),
         rng.uniform(-1, 1),
         rng.uniform(-1, 1),
         rng.uniform(-0.1f, 0.1f),
         rng.uniform(-0.1f, 0.1f),
         rng.uniform(-0.1f, 0.1f),
         rng.uniform(0.5f, 1.5f) / static_cast<float>(n)};
  }
  return records;
}

// Item 1: a name a future snapshot will take, made by someone else mid-run, is never written over.
TEST(CliSeriesTruth, AFileMadeUnderAFutureSnapshotsNameIsNeverReplaced) {
  TestRng rng;
  TempDir dir;
  const std::string series = dir.file("s");
  const int every = rng.uniform_int(1, 3);
  const int snapshots = 400;
  const std::string theirs = series + "/" + [&] {
    char name[48];
    std::snprintf(name, sizeof name, "snapshot-%08d.npy", every * snapshots);  // the last one's name
    return std::string(name);
  }();
  const std::string text = "theirs " + std::to_string(rng.engine()());
  ChildSetup setup;
  setup.on_started = [&](pid_t) {
    if (wait_for_rows(series, 1)) write_text(theirs, text);
  };
  const ProcessResult r = run_coalesce(
      with(plummer_run(rng.uniform_int(300, 600), std::to_string(rng.engine()())),
           {"--steps", std::to_string(every * snapshots), "--snapshot-every", std::to_string(every), series}),
      120, setup);
  expect_one_line(r, 1, {theirs, "did not write", "never writes over"});
  EXPECT_EQ(read_file(theirs), text) << "the user's file is untouched";
  const nlohmann::json index = read_index(series);
  std::vector<std::string> expected = listed_files(index);
  expected.push_back(fs::path(theirs).filename().string());
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(files_in(series), expected) << "nothing but the listed snapshots, the index and the user's file";
}

// Item 2: the folder's path swapped for a symlink to another folder mid-run: the series stays where it began.
TEST(CliSeriesTruth, ASeriesStaysInItsFolderWhenItsPathIsSwapped) {
  TestRng rng;
  TempDir dir;
  const std::string series = dir.file("s"), moved = dir.file("moved"), other = dir.file("other");
  fs::create_directory(other);
  const std::string mine = other + "/mine.txt";
  write_text(mine, "mine");
  const int steps = rng.uniform_int(150, 250);
  ChildSetup setup;
  setup.on_started = [&](pid_t) {
    if (!wait_for_rows(series, 2)) return;
    fs::rename(series, moved);
    fs::create_directory_symlink(other, series);
  };
  const ProcessResult r =
      run_coalesce(with(plummer_run(rng.uniform_int(300, 600), std::to_string(rng.engine()())),
                        {"--steps", std::to_string(steps), "--snapshot-every", "1", series}),
                   120, setup);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(files_in(other), std::vector<std::string>{"mine.txt"}) << "nothing written into the other folder";
  const nlohmann::json index = read_index(moved);
  EXPECT_EQ(index.at("snapshots").size(), static_cast<std::size_t>(steps));
  EXPECT_EQ(files_in(moved), listed_files(index)) << "every snapshot and the index in the folder it began in";
}

// Item 3: a loaded file's time is the run's start: saved again, in snapshots and in the index.
TEST(CliSeriesTruth, ALoadedFilesClockGoesOn) {
  TestRng rng;
  const int n = rng.uniform_int(8, 64);
  const double t0 = std::ldexp(static_cast<double>(rng.uniform_int(1, 1 << 20)), -rng.uniform_int(4, 12));
  const std::vector<Particle> records = cluster(rng, n);
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = 1000 + i;
  for (const auto& [format, extension] : std::vector<std::pair<StateFormat, std::string>>{
           {StateFormat::Tipsy, ".tipsy"}, {StateFormat::GadgetHdf5, ".hdf5"}}) {
    SCOPED_TRACE(extension + ", t0 " + std::to_string(t0));
    TempDir dir;
    const std::string in = dir.file("in" + extension);
    save_state(in, format, records, ids, t0);
    // --steps 0: the time is kept as it is.
    const std::string copy = dir.file("copy" + extension);
    const ProcessResult r0 =
        run_coalesce({"--backend", "cpu", "--load-state", in, "--steps", "0", "--save-state", copy});
    ASSERT_EQ(r0.exit_code, 0) << r0.err;
    EXPECT_EQ(load_state_file(copy, format, Precision::Fp32).contents.time, t0);
    // Steps go on from it, in the series' index and the files.
    const int steps = rng.uniform_int(2, 6);
    const double dt = 0.001 * rng.uniform_int(1, 9);
    const std::string series = dir.file("s"), last = dir.file("last" + extension);
    const ProcessResult r =
        run_coalesce({"--backend", "cpu", "--load-state", in, "--solver", "all-pairs", "--forces",
                      "one-sided", "--dt", std::to_string(dt), "--steps", std::to_string(steps),
                      "--snapshot-every", "1", series, "--save-state", last});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json index = read_index(series);
    const double run_dt = index.at("run").at("dt");
    for (const nlohmann::json& row : index.at("snapshots"))
      EXPECT_DOUBLE_EQ(row.at("time").get<double>(), t0 + row.at("step").get<double>() * run_dt)
          << row.dump();
    EXPECT_DOUBLE_EQ(load_state_file(last, format, Precision::Fp32).contents.time, t0 + steps * run_dt);
  }
}

// Item 4: the series stops at the first snapshot whose state is not finite, keeping the finite ones.
TEST(CliSeriesTruth, ASeriesStopsAtTheFirstNonFiniteState) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(8, 32);
  // Particles far apart and light, and one whose x overflows float in step `overflow` at dt 1.
  std::vector<ParticleF64> records(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < records.size(); ++i)
    records[i] = {100.0 * static_cast<double>(i), 0, 0, 0, 0, 0, 1e-12};
  const int overflow = rng.uniform_int(160, 195);  // x passes FLT_MAX a little before it
  records[0].vx = 3.41e38 / (overflow - 0.5);
  const std::string in = dir.file("in.npy"), series = dir.file("s");
  write_text(in, npy_state_bytes(records, "<f4", false));
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--load-state", in, "--solver", "all-pairs", "--forces", "one-sided",
                    "--dt", "1", "--steps", "600", "--snapshot-every", "50", series});
  expect_one_line(r, 1, {"not finite at step 200", "complete up to step 150"});
  const nlohmann::json index = read_index(series);
  ASSERT_EQ(index.at("snapshots").size(), 3u) << index.dump(2);
  EXPECT_EQ(files_in(series), listed_files(index));
  for (const nlohmann::json& row : index.at("snapshots"))  // every snapshot listed loads
    EXPECT_NO_THROW(
        load_state_file(series + "/" + row.at("file").get<std::string>(), StateFormat::Npy, Precision::Fp32));
}

// Item 5: Tipsy's .iord is written and read beside the real file when the path is a symlink.
TEST(CliSeriesTruth, TipsyIdsLiveBesideTheRealFile) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(8, 64);
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(n));
  for (std::uint64_t& id : ids) id = rng.engine()() >> 8;
  const std::string in = dir.file("in.tipsy");
  save_state(in, StateFormat::Tipsy, cluster(rng, n), ids, 0.0);
  fs::create_directory(dir.file("real"));
  const std::string target = dir.file("real/state.tipsy"), link = dir.file("link.tipsy");
  save_state(target, StateFormat::Tipsy, cluster(rng, n), std::vector<std::uint64_t>(ids.size(), 7), 0.0);
  fs::create_symlink(target, link);
  // Saving through the link replaces the target and its IDs; nothing lands beside the link.
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--load-state", in, "--steps", "0", "--save-state", link});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(link + ".iord"));
  EXPECT_EQ(load_state_file(target, StateFormat::Tipsy, Precision::Fp32).contents.ids, ids);
  // Loading through the link reads the IDs beside the target.
  const std::string out = dir.file("out.hdf5");
  const ProcessResult l =
      run_coalesce({"--backend", "cpu", "--load-state", link, "--steps", "0", "--save-state", out});
  ASSERT_EQ(l.exit_code, 0) << l.err;
  EXPECT_EQ(load_state_file(out, StateFormat::GadgetHdf5, Precision::Fp32).contents.ids, ids);
}

// Item 6: a file without units saved as HDF5 gets none unless --scene names them, and the line says so.
TEST(CliSeriesTruth, UnitsAreNeverGuessed) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(8, 64);
  const std::string in = dir.file("in.npy");
  save_state(in, StateFormat::Npy, cluster(rng, n), {}, 0.0);
  const std::string bare = dir.file("bare.hdf5");
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--load-state", in, "--steps", "0", "--save-state", bare});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("no physical units written"), std::string::npos) << r.out;
  EXPECT_FALSE(load_state_file(bare, StateFormat::GadgetHdf5, Precision::Fp32).contents.units);
  const std::string named = dir.file("named.hdf5");
  const ProcessResult s = run_coalesce(
      {"--backend", "cpu", "--scene", "galaxies", "--load-state", in, "--steps", "0", "--save-state", named});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  EXPECT_EQ(s.out.find("no physical units"), std::string::npos) << s.out;
  EXPECT_TRUE(load_state_file(named, StateFormat::GadgetHdf5, Precision::Fp32).contents.units);
}

// Item 8: a run of no steps times nothing; its line says auto measured nothing.
TEST(CliSeriesTruth, NoStepsMeasureNothing) {
  TestRng rng;
  TempDir dir;
  const std::string in = dir.file("in.npy"), out = dir.file("out.npy");
  save_state(in, StateFormat::Npy, cluster(rng, rng.uniform_int(64, 256)), {}, 0.0);
  const ProcessResult r = run_coalesce(
      {"--backend", "cpu", "--load-state", in, "--solver", "all-pairs", "--steps", "0", "--save-state", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("auto: nothing measured: no step runs"), std::string::npos) << r.out;
  EXPECT_TRUE(npy_payload(in) == npy_payload(out)) << "a bitwise copy";
}

// Item 10: an index that cannot be written (a file size limit standing in for a full disk) leaves no
// snapshot it does not list, and the line says which was removed.
TEST(CliSeriesTruth, ASnapshotTheIndexCannotListIsRemoved) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(16, 48);  // an .npy of 128 + 28 n bytes fits; the index outgrows the limit
  const std::string series = dir.file("s");
  ChildSetup setup;
  setup.file_size_limit = 4096;
  const ProcessResult r = run_coalesce(with(plummer_run(n, std::to_string(rng.engine()())),
                                            {"--steps", "40", "--snapshot-every", "1", series}),
                                       120, setup);
  expect_one_line(r, 1,
                  {"index.json", "removed snapshot-", "which it could not list", "complete up to step"});
  const nlohmann::json index = read_index(series);
  EXPECT_GE(index.at("snapshots").size(), 1u);
  EXPECT_EQ(files_in(series), listed_files(index)) << "no snapshot left unlisted, no temporary left";
}

// Item 11: --format contradicting an input's extension, where it names no output's format, is refused.
TEST(CliSeriesTruth, FormatContradictingAnInputIsRefused) {
  TestRng rng;
  TempDir dir;
  const std::string in = dir.file("in.npy");
  save_state(in, StateFormat::Npy, cluster(rng, 16), {}, 0.0);
  expect_one_line(run_coalesce({"--backend", "cpu", "--load-state", in, "--format", "hdf5", "--steps", "1"}),
                  2, {"--load-state " + in, "names a npy file, but --format says hdf5"});
  // Where it names the series' format, it is for the series.
  const ProcessResult r = run_coalesce({"--backend", "cpu", "--load-state", in, "--format", "hdf5", "--steps",
                                        "1", "--snapshot-every", "1", dir.file("s")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// Item 12: --save-state inside a series folder that does not exist yet gets the real refusal first.
TEST(CliSeriesTruth, SavingInsideANewSeriesFolderGetsTheRealRefusal) {
  TempDir dir;
  const std::string series = dir.file("s");
  expect_one_line(run_coalesce(with(plummer_run(16, "1"), {"--steps", "2", "--snapshot-every", "1", series,
                                                           "--save-state", series + "/final.npy"})),
                  2, {"is inside --snapshot-every's folder", "write it elsewhere"});
  EXPECT_FALSE(fs::exists(series));
}

// Item 13: the messages.
TEST(CliSeriesTruth, TheMessagesSayWhatHappened) {
  TestRng rng;
  TempDir dir;
  // --opt=value for the series' count, as for every flag.
  const ProcessResult glued =
      run_coalesce(with(plummer_run(16, "1"), {"--steps", "4", "--snapshot-every=2", dir.file("g")}));
  EXPECT_EQ(glued.exit_code, 0) << glued.err;
  EXPECT_EQ(read_index(dir.file("g")).at("snapshots").size(), 2u);
  // A monitor that would print nothing is refused as a series that would write nothing is.
  expect_one_line(run_coalesce(with(plummer_run(16, "1"), {"--steps", "5", "--monitor-every", "7"})), 2,
                  {"--monitor-every 7 prints nothing in --steps 5"});
  // The help names the series.
  EXPECT_NE(run_coalesce({"--help"}).out.find("--snapshot-every K DIR"), std::string::npos);
  // An fp64 series written as Tipsy says on the run's line that it was rounded.
  const ProcessResult tipsy =
      run_coalesce(with(plummer_run(16, "1"), {"--precision", "fp64", "--steps", "2", "--snapshot-every", "1",
                                               dir.file("t"), "--format", "tipsy"}));
  ASSERT_EQ(tipsy.exit_code, 0) << tipsy.err;
  EXPECT_NE(tipsy.out.find("rounded to float32"), std::string::npos) << tipsy.out;
}

// Item 13: a second request to stop names the series in what it says was kept.
TEST(CliSeriesTruth, ASecondSignalNamesTheSeries) {
  TestRng rng;
  TempDir dir;
  const std::string series = dir.file("s");
  ChildSetup setup;
  setup.on_started = [&](pid_t pid) {
    if (!wait_for_rows(series, 2)) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // into the next step, which takes seconds
    ::kill(pid, SIGINT);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    ::kill(pid, SIGTERM);  // another signal than the first: a new request, whenever it comes
  };
  // Large enough that the step after the first signal is still running when the second comes.
  const ProcessResult r = run_coalesce(with(plummer_run(rng.uniform_int(80000, 100000), "5"),
                                            {"--steps", "1000000", "--snapshot-every", "1", series}),
                                       120, setup);
  if (r.exit_code == 130)
    GTEST_SKIP() << "skipped: the step ended before the second signal came: " << r.err << r.out;
  EXPECT_EQ(r.exit_code, 143) << r.err;
  EXPECT_NE(r.err.find("--snapshot-every " + series + ": the snapshots its index.json lists stay"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(files_in(series), listed_files(read_index(series)));
}

}  // namespace
}  // namespace coalesce::testing
