// Data safety (docs/reliability.md) through the real executable: outputs are checked before any work, only regular
// files are replaced (symlinks followed), a failed write leaves the previous file whole with no temporary
// left, and a non-finite state never replaces a good one. Each case checks the exit code, the one stderr
// line and the files afterwards.
#include <gtest/gtest.h>

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/app/run_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"
#include "tests/support/scratch_files.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;
using Args = std::vector<std::string>;

// A short CPU run that writes its state: the work the outputs come from.
Args steps_saving(const std::string& state, int particles = 64) {
  return {"--backend", "cpu", "--scene",      "plummer", "--particles", std::to_string(particles),
          "--steps",   "3",   "--save-state", state};
}

// The smallest bench: a few milliseconds of CPU work, then the JSON. --no-counters: the CPU backend would
// otherwise say once that it has no hardware counters, a line these tests do not look at.
Args bench_writing(const std::string& json) {
  return {"bench",     "--backend", "cpu",      "--particles", "256",    "--repeats", "1",
          "--layouts", "soa",       "--solver", "attractors",  "--json", json, "--no-counters"};
}

// Exit code `code` and exactly one message line on stderr (bench's "[k/n] ..." progress lines aside).
void expect_one_line_past_markers(const ProcessResult& r, int code, const std::vector<std::string>& needles) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  std::vector<std::string> lines;
  for (const std::string& line : r.err_lines())
    if (line.rfind("[", 0) != 0) lines.push_back(line);
  ASSERT_EQ(lines.size(), 1u) << r.err;
  EXPECT_EQ(lines[0].rfind("coalesce: ", 0), 0u) << lines[0];
  for (const std::string& needle : needles) EXPECT_NE(lines[0].find(needle), std::string::npos) << lines[0];
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

bool is_root() {
  return ::geteuid() == 0;
}

// A character device node like /dev/null, made in the test's own directory when we may (root), so the
// old behaviour (replacing the node) can only ever damage the test's copy; else a FIFO, also not regular.
std::string special_file(const TempDir& dir, const std::string& name) {
  const std::string path = dir.file(name);
  if (is_root() && ::mknod(path.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) return path;
  if (::mkfifo(path.c_str(), 0666) != 0) ADD_FAILURE() << "cannot make a FIFO at " << path;
  return path;
}

bool still_special(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

TEST(CliDataSafety, DeviceNodesAndFifosAreNeverReplaced) {
  TempDir dir;
  const std::string node = special_file(dir, "node");
  for (const Args& args :
       {steps_saving(node), bench_writing(node), Args{"--headless", "--frames", "1", "--screenshot", node}}) {
    const ProcessResult r = run_coalesce(args, 30);
    expect_one_line_past_markers(r, 2, {node, "not a regular file"});
    EXPECT_TRUE(still_special(node)) << "the node was replaced";
    EXPECT_EQ(r.out, "") << "the work started before the output was checked";
  }
}

TEST(CliDataSafety, SymlinksAreFollowedAndStay) {
  TestRng rng;
  TempDir dir;
  fs::create_directory(dir.file("real"));
  const std::string target = dir.file("real/state.npy");
  write_file(target, "old");
  fs::create_symlink(target, dir.file("link.npy"));
  const int n = rng.uniform_int(2, 200);
  const ProcessResult r = run_coalesce(steps_saving(dir.file("link.npy"), n));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir.file("link.npy")));
  EXPECT_EQ(npy_payload(target).size(), static_cast<std::size_t>(n) * 28)
      << "the link's target was not written";

  // A dangling link is refused before any step, whether or not its directory exists
  // (tests/app/cli_write_failure_test.cpp has the first case).
  fs::create_symlink(dir.file("no-such-dir/state.npy"), dir.file("broken.npy"));
  const ProcessResult broken = run_coalesce({"--backend", "cpu", "--scene", "plummer", "--particles", "64",
                                             "--steps", "1000000000", "--save-state", dir.file("broken.npy")},
                                            30);
  expect_one_line_past_markers(broken, 2, {"broken.npy", "no-such-dir", "does not exist"});
}

TEST(CliDataSafety, ReadOnlyFileIsRefusedBeforeAnyStep) {
  TestRng rng;
  TempDir dir;
  const std::string path = dir.file("kept.npy");
  const std::string old = random_bytes(rng, rng.uniform_int(1, 999));
  write_file(path, old);
  fs::permissions(path, fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  // A billion steps: refused at once, or this would time out.
  const ProcessResult r = run_coalesce({"--backend", "cpu", "--scene", "plummer", "--particles", "64",
                                        "--steps", "1000000000", "--save-state", path},
                                       30);
  expect_one_line_past_markers(r, 2, {path, "read-only"});
  EXPECT_EQ(read_file(path), old);
  EXPECT_EQ(r.out, "");
}

// RLIMIT_FSIZE makes the write fail part way, as a full disk does: the previous file must survive whole
// and no temporary may be left. A real full tmpfs is checked below where the test may mount one.
TEST(CliDataSafety, FailedWritesKeepThePreviousFile) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file("state.npy"), json = dir.file("bench.json");
  const std::string old_state = random_bytes(rng, rng.uniform_int(100, 500));
  const std::string old_json = random_bytes(rng, rng.uniform_int(100, 500));
  write_file(state, old_state);
  write_file(json, old_json);
  ChildSetup small_disk;
  small_disk.file_size_limit = 1500;  // below a 64-particle state (1920 B) and the bench JSON (2.7 KB)
  expect_one_line_past_markers(run_coalesce(steps_saving(state), 60, small_disk), 1, {state, "cannot write", "untouched"});
  EXPECT_EQ(read_file(state), old_state);
  ChildSetup small_disk_quiet = small_disk;
  small_disk_quiet.stdout_path = "/dev/null";  // bench's table on stdout (1.7 KB) would meet the limit too
  expect_one_line_past_markers(run_coalesce(bench_writing(json), 60, small_disk_quiet), 1, {json, "cannot write", "untouched"});
  EXPECT_EQ(read_file(json), old_json);
  EXPECT_EQ(other_files(dir, {"state.npy", "bench.json"}), std::vector<std::string>{});

  // A new file that cannot be written: nothing appears at all.
  const std::string fresh = dir.file("fresh.npy");
  expect_one_line_past_markers(run_coalesce(steps_saving(fresh), 60, small_disk), 1, {fresh, "nothing was written"});
  EXPECT_FALSE(fs::exists(fresh));
  EXPECT_EQ(other_files(dir, {"state.npy", "bench.json"}), std::vector<std::string>{});
}

// The same on a real full file system: ENOSPC from a 16 KiB tmpfs.
TEST(CliDataSafety, FullDiskKeepsThePreviousFile) {
  TestRng rng;
  TempDir dir;
  const SmallDisk disk(dir.file("disk"), 16);
  if (!disk.mounted()) GTEST_SKIP() << "skipped: cannot mount a tmpfs here (needs root)";
  const std::string state = dir.file("disk/state.npy"), json = dir.file("disk/bench.json");
  const std::string old_state = random_bytes(rng, 3000), old_json = random_bytes(rng, 3000);
  write_file(state, old_state);
  write_file(json, old_json);
  // 512 particles need 14.5 KB: more than the 10 KB left.
  expect_one_line_past_markers(run_coalesce(steps_saving(state, 512)), 1,
                  {state, "No space left on device", "untouched", "the disk is full: free some space"});
  EXPECT_EQ(read_file(state), old_state);
  write_file(dir.file("disk/filler"), std::string(9000, 'x'));  // about 1 KB left: less than the JSON
  expect_one_line_past_markers(run_coalesce(bench_writing(json)), 1, {json, "No space left on device", "untouched"});
  EXPECT_EQ(read_file(json), old_json);
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.file("disk"))) names.push_back(entry.path().filename());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"bench.json", "filler", "state.npy"})) << "a temporary was left";
}

TEST(CliDataSafety, NonFiniteStateIsSavedBesideNeverOver) {
  TestRng rng;
  TempDir dir;
  const std::string good = dir.file("run.npy");
  const std::string old = random_bytes(rng, rng.uniform_int(100, 500));
  write_file(good, old);
  // Velocities near the float maximum overflow the positions on the first step.
  std::vector<Particle> state = random_particles(rng, rng.uniform_int(2, 64));
  for (Particle& p : state) p.vz = -3e38f;
  write_npy(dir.file("fast.npy"), "<f4", "(" + std::to_string(state.size()) + ", 7)", bytes_of(state));
  const ProcessResult r =
      run_coalesce({"--backend", "cpu", "--scene", "cube", "--load-state", dir.file("fast.npy"), "--dt",
                    "1000", "--steps", "2", "--save-state", good});
  const std::string beside = dir.file("run.nonfinite.npy");
  expect_one_line_past_markers(r, 1, {"not finite", beside, good + " untouched"});
  EXPECT_EQ(read_file(good), old);
  EXPECT_EQ(npy_payload(beside).size(), state.size() * 28) << "the broken state is kept to look at";
}

TEST(CliDataSafety, ScreenshotNamedJsonWouldOverwriteItsPng) {
  TempDir dir;
  const std::string shot = dir.file("shot.json");
  expect_one_line_past_markers(run_coalesce({"--headless", "--frames", "1", "--screenshot", shot}, 30), 2,
                  {shot, "same file", dir.file("shot.png")});
  EXPECT_FALSE(fs::exists(shot));
}

TEST(CliDataSafety, TwoOutputsThatAreOneFileAreRefused) {
  TempDir dir;
  write_file(dir.file("state.npy"), "old");  // a link's target must exist (a dangling one is refused)
  fs::create_symlink(dir.file("state.npy"), dir.file("shot.png"));
  const ProcessResult r = run_coalesce({"--headless", "--frames", "1", "--screenshot", dir.file("shot.png"),
                                        "--save-state", dir.file("state.npy")},
                                       30);
  expect_one_line_past_markers(r, 2, {"the same file"});
  EXPECT_EQ(read_file(dir.file("state.npy")), "old");
  EXPECT_FALSE(fs::exists(dir.file("shot.json")));
}

TEST(CliDataSafety, JsonToStdoutIsTheJsonAlone) {
  const ProcessResult r = run_coalesce(bench_writing("-"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_FALSE(r.out.empty());
  EXPECT_EQ(r.out.front(), '{') << r.out;
  EXPECT_EQ(r.out.find("median ms"), std::string::npos) << "the table goes to stderr with --json -";
  EXPECT_NE(r.err.find("median ms"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("\"rows\""), std::string::npos);
}

TEST(CliDataSafety, FailedWriteToStdoutIsAnError) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "skipped: no /dev/full here";
  ChildSetup full;
  full.stdout_path = "/dev/full";
  for (const Args& args : {Args{"--help"}, bench_writing("-")}) {
    const ProcessResult r = run_coalesce(args, 60, full);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("standard output"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace coalesce::testing
