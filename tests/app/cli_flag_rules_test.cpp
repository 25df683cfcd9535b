// Flags that would be ignored are refused, and advice follows the cause (issue 30 §5), through the real
// executable on fresh random inputs: the exit code, the line, and the bytes of every file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/cli_table.h"
#include "tests/app/bench_json_fixture.h"
#include "tests/app/run_process.h"
#include "tests/support/npy_writer.h"
#include "tests/support/scratch_files.h"
#include "tests/support/test_random.h"

#if defined(__SANITIZE_ADDRESS__)
#define COALESCE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define COALESCE_TEST_ASAN 1
#endif
#endif

namespace coalesce::testing {
namespace {

using Args = std::vector<std::string>;
constexpr int kQuick = 60;
constexpr int kRun = 240;  // seconds for a run that steps or draws: a loaded machine takes tens

void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// --compare and --from read saved runs: every bench flag the table does not mark as theirs is refused by
// both, so a flag added to set up runs cannot be silently ignored there. The plot keeps its bytes.
TEST(CliFlagRules, SavedRunsRefuseEveryFlagThatSetsUpARun) {
  TestRng rng;
  TempDir dir;
  SyntheticRun run;
  run.rows = random_rows(rng, rng.uniform_int(1, 12));
  write_run(dir.file("a.json"), run);
  write_run(dir.file("b.json"), run);
  const std::string plot = dir.file("plot.svg"), old = random_bytes(rng, rng.uniform_int(1, 4096));
  std::vector<std::string> refused;
  for (const cli::OptionSpec* spec = cli::option_table_begin(); spec != cli::option_table_end(); ++spec) {
    if (!(spec->scopes & cli::kBench) || spec->reads_saved_runs) continue;
    const std::string flag(spec->name);
    refused.push_back(flag);
    Args given{flag};
    if (!spec->value.empty()) given.push_back(flag == "--cpu-target" ? "best" : std::string(spec->example));
    const Args compare{"--compare", dir.file("a.json"), dir.file("b.json")};
    const Args from{"--plot", plot, "--from", dir.file("a.json")};
    for (const auto& [reader, mode] :
         {std::pair<std::string, Args>{"--compare", compare}, {"--from", from}}) {
      write_bytes(plot, old);
      Args args{"bench"};
      const bool first = rng.uniform_int(0, 1) == 1;  // the flag before or after the saved runs
      for (const Args& part : first ? std::vector<Args>{given, mode} : std::vector<Args>{mode, given})
        args.insert(args.end(), part.begin(), part.end());
      expect_one_line(
          run_coalesce(args, kQuick), 2,
          {flag + " sets up a bench run, but " + reader + " runs nothing", "(drop " + flag + ")"});
      EXPECT_EQ(read_file(plot), old) << flag;
      EXPECT_EQ(other_files(dir, {"a.json", "b.json", "plot.svg"}), std::vector<std::string>{});
    }
  }
  for (const char* flag :
       {"--precision", "--forces", "--cpu-target", "--particles", "--layouts", "--backend"})
    EXPECT_NE(std::find(refused.begin(), refused.end(), flag), refused.end()) << flag;
  // Without them both run: the refusals above are the flags'.
  EXPECT_EQ(run_coalesce({"bench", "--compare", dir.file("a.json"), dir.file("b.json")}, kQuick).exit_code,
            0);
  write_bytes(plot, old);
  EXPECT_EQ(run_coalesce({"bench", "--plot", plot, "--from", dir.file("a.json")}, kQuick).exit_code, 0);
  EXPECT_NE(read_file(plot), old);
}

// --forces names the all-pairs scheme: where only attractors run and nothing can switch (--steps, bench with
// --solver attractors) it is refused, and the output the run would write keeps its bytes.
TEST(CliFlagRules, ForcesWhereOnlyAttractorsRunIsRefused) {
  TestRng rng;
  TempDir dir;
  const char* schemes[] = {"one-sided", "mutual", "auto"};
  const std::string forces = schemes[rng.uniform_int(0, 2)], n = std::to_string(rng.uniform_int(16, 2000));
  const std::string out = dir.file("out"), old = random_bytes(rng, rng.uniform_int(1, 4096));
  const Args steps{"--backend", "cpu", "--steps", std::to_string(rng.uniform_int(1, 3)), "--particles", n};
  const std::vector<std::pair<Args, std::string>> cases = {
      {{"--solver", "attractors", "--save-state", out}, "this --steps run"},
      {{"--scene", "swirl", "--save-state", out}, "this --steps run (scene swirl)"},
      {{"bench", "--solver", "attractors", "--particles", n, "--json", out}, "bench --solver attractors"}};
  for (const auto& [extra, run] : cases) {
    Args args = extra[0] == "bench" ? Args{} : steps;
    args.insert(args.end(), extra.begin(), extra.end());
    write_bytes(out, old);
    args.insert(args.end(), {"--forces", forces});
    expect_one_line(
        run_coalesce(args, kQuick), 2,
        {"--forces picks the all-pairs scheme, but " + run, "attractors solver", "drop --forces"});
    EXPECT_EQ(read_file(out), old);
    EXPECT_EQ(other_files(dir, {"out"}), std::vector<std::string>{});
  }
  // The same --steps run without --forces runs: the refusal is the flag's.
  Args fine = steps;
  fine.insert(fine.end(), {"--solver", "attractors"});
  EXPECT_EQ(run_coalesce(fine, kRun).exit_code, 0);
}

nlohmann::json settings_of(const std::string& json_path) {
  std::ifstream in(json_path);
  return nlohmann::json::parse(in, nullptr, false)["settings"];
}

// The viewer can switch to all-pairs live, so there --forces with attractors is kept: the screenshot JSON
// records it (null only for auto) and --camera-from restores it.
TEST(CliFlagRules, ForcesWithAttractorsIsRecordedAndRestoredByTheViewer) {
  if (!viewer_built()) GTEST_SKIP() << "skipped: this build has no viewer";
  TestRng rng;
  TempDir dir;
  const std::string forces = rng.uniform_int(0, 1) ? "one-sided" : "mutual";
  const Args shot{"--headless", "--frames", std::to_string(rng.uniform_int(1, 3)), "--width", "64",
                  "--height",   "64"};
  const auto take = [&](const std::string& name, const Args& extra) {
    Args args = shot;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--screenshot", dir.file(name + ".png")});
    const ProcessResult r = run_coalesce(args, kRun);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r;
  };
  const std::string n = std::to_string(rng.uniform_int(16, 1000));
  take("asked", {"--particles", n, "--solver", "attractors", "--forces", forces});
  take("auto", {"--particles", n, "--solver", "attractors"});
  const nlohmann::json asked = settings_of(dir.file("asked.json")),
                       automatic = settings_of(dir.file("auto.json"));
  EXPECT_EQ(asked["solver"], "attractors");
  EXPECT_EQ(asked["forces"], forces);
  EXPECT_TRUE(automatic["forces"].is_null()) << automatic.dump();
  const ProcessResult again = take("again", {"--camera-from", dir.file("asked.json")});
  EXPECT_NE(again.err.find("forces " + forces), std::string::npos) << again.err;
  EXPECT_EQ(settings_of(dir.file("again.json"))["forces"], forces);
  EXPECT_EQ(settings_of(dir.file("again.json"))["solver"], "attractors");
}

// A read-only mount needs another place, not chmod: a bind mount made read-only in a mount namespace of its
// own (root only; skipped, saying so, where it cannot be made).
TEST(CliFlagRules, AFileOnAReadOnlyMountIsToldToGoElsewhere) {
  TestRng rng;
  TempDir dir;
  const std::string old = random_bytes(rng, rng.uniform_int(1, 4096));
  write_bytes(dir.file("state.npy"), old);
  for (const std::string name : {"state.npy", "new.npy"}) {
    const std::string script =
        "mount --bind \"$1\" \"$1\" && mount -o remount,bind,ro \"$1\" || exit 99; shift; exec \"$@\"";
    const ProcessResult r =
        run_process({"unshare", "-m", "sh", "-c", script, "sh", dir.path().string(), coalesce_executable(),
                     "--backend", "cpu", "--steps", "1", "--particles",
                     std::to_string(rng.uniform_int(16, 500)), "--save-state", dir.file(name)},
                    {}, {}, kQuick);
    if (r.exit_code == 99 || r.exit_code == 127 ||
        (r.exit_code == 1 && r.err.find("unshare") != std::string::npos))
      GTEST_SKIP() << "skipped: cannot make a read-only mount here (needs root and unshare): " << r.err;
    expect_one_line(r, 2, {"--save-state " + dir.file(name), "read-only", "a writable one"});
    EXPECT_EQ(r.err.find("chmod"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(dir.file("state.npy")), old);
    EXPECT_EQ(other_files(dir, {"state.npy"}), std::vector<std::string>{});
  }
}

// Out of memory while loading a state: the file sets N, so the advice is about memory and the file; it
// never names --particles, which --load-state refuses. A sparse file's header asks for more than the limit.
TEST(CliFlagRules, OutOfMemoryLoadingAStateSpeaksOfTheFile) {
#ifdef COALESCE_TEST_ASAN
  GTEST_SKIP() << "skipped: AddressSanitizer reserves more address space than RLIMIT_AS allows";
#else
  TestRng rng;
  TempDir dir;
  // Room for the program and its libraries (cuBLAS alone maps half a GiB) but not for the records: 56 bytes
  // each as doubles, 5.25 GiB or more, read before any backend or thread exists.
  const long limit = 4L << 30;
  const int n = rng.uniform_int(96 << 20, 128 << 20);
  const std::string state = dir.file("big.npy"), saved = dir.file("out.npy"), old = random_bytes(rng, 100);
  write_npy_file(state, "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(n) + ", 7), }",
                 "");
  const std::uintmax_t header = std::filesystem::file_size(state);
  std::filesystem::resize_file(state, header + std::uintmax_t{28} * static_cast<std::uintmax_t>(n));
  write_bytes(saved, old);
  ChildSetup setup;
  setup.address_space_limit = limit;
  const ProcessResult r = run_coalesce(
      {"--backend", "cpu", "--steps", "1", "--load-state", state, "--save-state", saved}, kQuick, setup);
  expect_one_line(r, 1, {"--load-state " + state, "out of host memory", "load a state with fewer particles"});
  EXPECT_EQ(r.err.find("--particles"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(saved), old);
  EXPECT_EQ(other_files(dir, {"big.npy", "out.npy"}), std::vector<std::string>{});
#endif
}

}  // namespace
}  // namespace coalesce::testing
