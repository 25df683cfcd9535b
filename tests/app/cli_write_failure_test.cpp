// Write failures through the real executable (issue 19, docs/reliability.md): each says its real cause and a
// fix that works, checks that can be made before the work are made before it (a dangling link, another
// user's file, a sticky directory), and the shell's `ulimit -f` is one line, not a silent death. Each case
// checks the exit code, the one line and the bytes of every file afterwards.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
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

constexpr uid_t kOtherUser = 65533;  // owns the files
constexpr uid_t kRunner = 65534;     // runs coalesce (nobody)

Args steps_saving(const std::string& state, const std::string& steps = "3") {
  return {"--backend", "cpu", "--scene", "plummer", "--particles", "64", "--steps", steps, "--save-state", state};
}

// The one message line (bench's "[k/n]" progress and the stop-signal notice aside) and the exit code.
std::string the_line(const ProcessResult& r, int code) {
  EXPECT_EQ(r.exit_code, code) << r.err;
  std::vector<std::string> lines;
  for (const std::string& line : r.err_lines())
    if (line.rfind("[", 0) != 0 && line.rfind("coalesce: interrupted (", 0) != 0) lines.push_back(line);
  EXPECT_EQ(lines.size(), 1u) << r.err;
  return lines.empty() ? "" : lines[0];
}

void expect_has(const std::string& line, const std::vector<std::string>& needles) {
  for (const std::string& needle : needles) EXPECT_NE(line.find(needle), std::string::npos) << needle << " in: " << line;
}

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string random_name(TestRng& rng, const std::string& extension) {
  return "f" + std::to_string(rng.uniform_int(0, 999999)) + extension;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A user's shell leaves SIGXFSZ at its default: the write past `ulimit -f` must still be one line, exit 1,
// with the previous file whole and no temporary (before, the process died of the signal, silently).
TEST(CliWriteFailure, FileSizeLimitAtTheShellsDefaultIsOneLine) {
  TestRng rng;
  TempDir dir;
  const std::string state = dir.file(random_name(rng, ".npy")), json = dir.file(random_name(rng, ".json"));
  const std::string old_state = random_bytes(rng, rng.uniform_int(1, 1000));
  const std::string old_json = random_bytes(rng, rng.uniform_int(1, 1000));
  write_file(state, old_state);
  write_file(json, old_json);
  ChildSetup shell;
  shell.file_size_limit = 1500;  // below a 64-particle state (1920 B) and the bench JSON
  shell.default_sigxfsz = true;
  expect_has(the_line(run_coalesce(steps_saving(state), 60, shell), 1),
             {state, "File too large", "untouched", "ulimit -f"});
  EXPECT_EQ(read_file(state), old_state);
  const Args bench = {"bench", "--backend", "cpu", "--particles", "256", "--repeats", "1", "--layouts", "soa",
                      "--solver", "attractors", "--json", json, "--no-counters"};
  ChildSetup shell_quiet = shell;
  shell_quiet.stdout_path = "/dev/null";  // bench's table on stdout (1.7 KB) would meet the limit too
  expect_has(the_line(run_coalesce(bench, 60, shell_quiet), 1), {json, "untouched", "ulimit -f"});
  EXPECT_EQ(read_file(json), old_json);
  std::vector<std::string> expected{fs::path(state).filename(), fs::path(json).filename()};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(names_in(dir.path()), expected) << "a temporary was left";
}

// docs/reliability.md: a dangling link is refused (the code used to create its target).
TEST(CliWriteFailure, DanglingSymlinkIsRefusedAndNothingIsCreated) {
  TestRng rng;
  TempDir dir;
  const std::string target = dir.file(random_name(rng, ".npy")), link = dir.file(random_name(rng, ".npy"));
  fs::create_symlink(target, link);
  const std::string line = the_line(run_coalesce(steps_saving(link, "1000000000"), 30), 2);
  expect_has(line, {link, target, "dangling"});
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{fs::path(link).filename()});
}

// chmod only helps the file's owner: another user's read-only file gets no chmod advice.
TEST(CliWriteFailure, AnotherUsersReadOnlyFileGetsAdviceThatWorks) {
  if (::geteuid() != 0) GTEST_SKIP() << "skipped: needs root to make files of two users";
  TestRng rng;
  TempDir dir;
  fs::permissions(dir.path(), fs::perms::all);
  const std::string theirs = dir.file(random_name(rng, ".npy")), mine = dir.file(random_name(rng, ".npy"));
  const std::string old = random_bytes(rng, rng.uniform_int(1, 1000));
  for (const auto& [path, owner] : {std::pair{theirs, kOtherUser}, std::pair{mine, kRunner}}) {
    write_file(path, old);
    ASSERT_EQ(::chown(path.c_str(), owner, owner), 0);
    ASSERT_EQ(::chmod(path.c_str(), 0444), 0);
  }
  ChildSetup as_runner;
  as_runner.run_as_uid = static_cast<int>(kRunner);
  const std::string their_line = the_line(run_coalesce(steps_saving(theirs, "1000000000"), 30, as_runner), 2);
  expect_has(their_line, {theirs, "belongs to", "another path"});
  EXPECT_EQ(their_line.find("chmod u+w"), std::string::npos) << their_line;
  expect_has(the_line(run_coalesce(steps_saving(mine, "1000000000"), 30, as_runner), 2),
             {mine, "read-only", "chmod u+w"});
  EXPECT_EQ(read_file(theirs), old);
  EXPECT_EQ(read_file(mine), old);
}

// In a sticky directory (/tmp) the rename over another user's file fails with EPERM, after the whole run:
// it is refused before the first step instead (a billion steps would time out here).
TEST(CliWriteFailure, AnotherUsersFileInAStickyDirectoryIsRefusedBeforeTheRun) {
  if (::geteuid() != 0) GTEST_SKIP() << "skipped: needs root to make files of two users";
  TestRng rng;
  TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 01777), 0);
  const std::string path = dir.file(random_name(rng, ".npy"));
  const std::string old = random_bytes(rng, rng.uniform_int(1, 1000));
  write_file(path, old);
  ASSERT_EQ(::chown(path.c_str(), kOtherUser, kOtherUser), 0);
  ASSERT_EQ(::chmod(path.c_str(), 0666), 0);  // writable for everyone: only the sticky bit stands in the way
  ChildSetup as_runner;
  as_runner.run_as_uid = static_cast<int>(kRunner);
  const ProcessResult r = run_coalesce(steps_saving(path, "1000000000"), 30, as_runner);
  expect_has(the_line(r, 2), {path, "sticky", "another path"});
  EXPECT_EQ(r.out, "") << "the work started before the output was checked";
  EXPECT_EQ(read_file(path), old);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{fs::path(path).filename()});
}

// The directory of --save-state removed during the run: the run's failure (exit 1), not a usage error.
TEST(CliWriteFailure, StateDirectoryRemovedDuringTheRunIsARuntimeFailure) {
  TestRng rng;
  TempDir dir;
  const std::string sub = dir.file(random_name(rng, ""));
  fs::create_directory(sub);
  const std::string state = sub + "/" + random_name(rng, ".npy");
  ChildSetup remove_then_stop;
  remove_then_stop.on_started = [&sub](pid_t pid) {
    if (!wait_for_sigint_handler(pid, 20)) return;
    fs::remove_all(sub);
    ::kill(pid, SIGINT);
  };
  const std::string line = the_line(run_coalesce(steps_saving(state, "1000000000"), 60, remove_then_stop), 1);
  expect_has(line, {state, "was removed during the run", "create it again"});
  EXPECT_FALSE(fs::exists(sub)) << "coalesce never creates directories for a state file";
}

}  // namespace
}  // namespace coalesce::testing
