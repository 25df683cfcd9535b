// How a viewer run ends (issue 19, docs/reliability.md), headless on Mesa through the real executable:
// SIGTERM finishes the clip and saves the state; a second signal while a clip is being finished removes its
// temporary and says truthfully what became of each file; a screenshot's PNG and JSON are replaced together
// or not at all; ffmpeg's own lines never reach the user raw; a frame size ffmpeg refuses is refused first.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/npy_writer.h"
#include "tests/support/test_random.h"
#include "tests/support/scratch_files.h"

namespace coalesce::testing {
namespace {

namespace fs = std::filesystem;
const std::vector<std::string> kNoDisplay{"DISPLAY", "WAYLAND_DISPLAY"};

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

bool has_temporary(const std::string& dir) {
  for (const std::string& name : names_in(dir))
    if (name.front() == '.' && name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0) return true;
  return false;
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// A headless run of many frames recording `clip`, saving `state` when it ends.
std::vector<std::string> recording_run(int particles, const std::string& clip, const std::string& state) {
  return viewer_command({true, "cpu", "cube", particles, "", 100000000, 320, 240, "",
                         {"--record", clip, "--save-state", state}});
}

// Waits until the clip has frames on disk: an .mp4's temporary has bytes, a PNG sequence has a frame.
void wait_for_clip_frames(const std::string& dir, const std::string& clip_name) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline) {
    std::error_code ignored;
    if (fs::exists(dir + "/" + clip_name + "/frame-000001.png", ignored)) return;
    for (const auto& entry : fs::directory_iterator(dir, ignored))
      if (entry.path().filename().string().rfind("." + clip_name + ".", 0) == 0 &&
          fs::file_size(entry.path(), ignored) > 0)
        return;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

TEST(ViewerRunEnd, SigtermFinishesTheClipSavesTheStateAndExits143) {
  TestRng rng;
  TempDir dir;
  const int n = rng.uniform_int(100, 2000);
  const std::string clip_name = on_path("ffmpeg") ? "c" + std::to_string(rng.uniform_int(0, 9999)) + ".mp4"
                                                  : "c" + std::to_string(rng.uniform_int(0, 9999));
  const std::string clip = dir.file(clip_name), state = dir.file("state.npy");
  ChildSetup stop;
  bool signalled = false;
  stop.on_started = [&](pid_t pid) {
    if (!wait_for_signal_handler(pid, SIGTERM, 60)) return;
    wait_for_clip_frames(dir.path(), clip_name);
    signalled = ::kill(pid, SIGTERM) == 0;
  };
  const ProcessResult r = run_process(recording_run(n, clip, state), kNoDisplay, {}, 120, stop);
  ASSERT_TRUE(signalled) << "the run's SIGTERM handler never appeared, so nothing was tested: " << r.err;
  EXPECT_EQ(r.exit_code, 143) << r.err;
  EXPECT_NE(r.err.find("coalesce: interrupted (SIGTERM): stopping after this step"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("saved to " + state), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("coalesce: wrote " + clip), std::string::npos) << r.out;
  EXPECT_EQ(npy_payload(state).size(), static_cast<std::size_t>(n) * 28);
  const std::string json = clip_name.size() > 4 && clip_name.substr(clip_name.size() - 4) == ".mp4"
                               ? clip.substr(0, clip.size() - 4) + ".json"
                               : clip + ".json";
  const auto j = load_screenshot_json(json);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_EQ(j.at("clip").at("ended"), "the run ended");
  EXPECT_GT(j.at("clip").at("frames").get<long>(), 0);
  EXPECT_FALSE(has_temporary(dir.path())) << "a temporary was left";
}

// The second signal lands at a random moment while the clip is being finished: whatever the line says of
// the clip must be what is on disk, and no temporary may be left (before, ffmpeg's one kept growing).
TEST(ViewerRunEnd, SecondSignalSaysWhatBecameOfTheClipAndLeavesNoTemporary) {
  if (!on_path("ffmpeg")) GTEST_SKIP() << "skipped: no ffmpeg on PATH";
  TestRng rng;
  TempDir dir;
  const std::string clip = dir.file("clip.mp4"), state = dir.file("state.npy");
  const int delay_us = rng.uniform_int(0, 250000);  // from mid-finish to after the run (about 0.2 s here)
  ChildSetup stop;
  bool signalled = false;
  stop.on_started = [&](pid_t pid) {
    if (!wait_for_signal_handler(pid, SIGTERM, 60)) return;
    wait_for_clip_frames(dir.path(), "clip.mp4");
    signalled = ::kill(pid, SIGTERM) == 0;
    ::usleep(static_cast<useconds_t>(delay_us));
    // A new request (a SIGHUP never is one, nor SIGTERM again at once); a zombie until reaped, if the run
    // already ended: no other process gets it.
    ::kill(pid, SIGINT);
  };
  const ProcessResult r = run_process(recording_run(rng.uniform_int(100, 2000), clip, state), kNoDisplay, {}, 120,
                                      stop);
  SCOPED_TRACE("second signal after " + std::to_string(delay_us) + " us");
  ASSERT_TRUE(signalled) << "the run's SIGTERM handler never appeared, so nothing was tested: " << r.err;
  EXPECT_FALSE(has_temporary(dir.path())) << "a temporary was left";
  if (r.exit_code == 143)  // the first signal's end, which the test above checks whole
    GTEST_SKIP() << "skipped: the run ended before the second signal (" << delay_us << " us after the first)";
  ASSERT_EQ(r.exit_code, 130) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_FALSE(lines.empty());
  const std::string& last = lines.back();
  EXPECT_EQ(last.rfind("coalesce: interrupted again (SIGINT), exiting now: ", 0), 0u) << last;
  for (const std::string& file : {clip, dir.file("clip.json"), state}) {
    const bool written = last.find(" " + file + " was written") != std::string::npos;
    EXPECT_TRUE(written || last.find(" " + file + " was not written") != std::string::npos) << file << ": " << last;
    EXPECT_EQ(fs::exists(file), written) << file << ": " << last;
  }
}

// Issue 19: on a full disk the PNG was replaced and the JSON write failed, so the pair no longer matched.
// The disk is filled so the new PNG fits and its JSON does not: both old files must stay, byte for byte.
TEST(ViewerRunEnd, ScreenshotPairOnAFullDiskIsReplacedTogetherOrNotAtAll) {
  TestRng rng;
  TempDir dir;
  const SmallDisk disk(dir.file("disk"), 2048);
  if (!disk.mounted()) GTEST_SKIP() << "skipped: cannot mount a tmpfs here (needs root)";
  const int n = rng.uniform_int(100, 2000);
  ViewerArgs args{true, "cpu", "cube", n, "soa", 2, 320, 240, dir.file("probe.png"), {"--no-panel"}};
  // The same run once on a roomy disk gives the sizes (--no-panel: the picture holds no timings).
  const ProcessResult probe = run_process(viewer_command(args), kNoDisplay);
  ASSERT_EQ(probe.exit_code, 0) << probe.err;
  const auto png_size = fs::file_size(dir.file("probe.png")), json_size = fs::file_size(dir.file("probe.json"));
  // The old pair: an earlier shot of another N (coalesce replaces only its own screenshot JSON).
  ViewerArgs earlier = args;
  earlier.particles = n + rng.uniform_int(1, 100);
  earlier.screenshot = dir.file("earlier.png");
  ASSERT_EQ(run_process(viewer_command(earlier), kNoDisplay).exit_code, 0);
  const std::string old_png = read_file(dir.file("earlier.png")), old_json = read_file(dir.file("earlier.json"));

  const std::string png = dir.file("disk/shot.png"), json = dir.file("disk/shot.json");
  write_file(png, old_png);
  write_file(json, old_json);
  struct statvfs fs_info {};
  ASSERT_EQ(::statvfs(dir.file("disk").c_str(), &fs_info), 0);
  const std::uintmax_t page = fs_info.f_bsize, free_pages = fs_info.f_bavail;
  const std::uintmax_t keep_pages = (png_size + page - 1) / page + 1;  // the PNG and one page to spare
  ASSERT_GT(json_size, page) << "the JSON must need more than the one spare page";
  ASSERT_GT(free_pages, keep_pages);
  write_file(dir.file("disk/filler"), std::string((free_pages - keep_pages) * page, 'x'));

  args.screenshot = png;
  const ProcessResult r = run_process(viewer_command(args), kNoDisplay);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  for (const std::string& needle : std::vector<std::string>{png, json, "No space left on device", "both", "untouched",
                                                           "free some space"})
    EXPECT_NE(lines[0].find(needle), std::string::npos) << needle << " in: " << lines[0];
  EXPECT_EQ(read_file(png), old_png) << "the PNG was replaced without its JSON";
  EXPECT_EQ(read_file(json), old_json);
  EXPECT_EQ(names_in(dir.file("disk")), (std::vector<std::string>{"filler", "shot.json", "shot.png"}))
      << "a temporary was left";
}

// ffmpeg refuses pictures whose (width + 128) x (height + 128) reaches 2^31 / 8: refused before any frame.
TEST(ViewerRunEnd, FrameSizeFfmpegRefusesIsRefusedBeforeTheRun) {
  if (!on_path("ffmpeg")) GTEST_SKIP() << "skipped: no ffmpeg on PATH";
  TestRng rng;
  TempDir dir;
  const int width = rng.uniform_int(16256, 16384), height = rng.uniform_int(16256, 16384);
  const std::string clip = dir.file("big.mp4");
  const ProcessResult r = run_process(
      viewer_command({true, "cpu", "cube", 100, "", 10, width, height, "", {"--record", clip}}), kNoDisplay, {}, 60);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  const std::string size = std::to_string(width) + " x " + std::to_string(height);
  for (const std::string& needle : {clip, "ffmpeg cannot encode frames of " + size, dir.file("big") + "/"})
    EXPECT_NE(lines[0].find(needle), std::string::npos) << needle << " in: " << lines[0];
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{});
}

// An ffmpeg that fails with lines of its own (control characters included): the user sees one line of
// ours quoting its first, escaped, and neither the clip nor a temporary is left.
TEST(ViewerRunEnd, FfmpegFailureIsOneEscapedLineNamingItsCause) {
  TestRng rng;
  TempDir dir;
  fs::create_directory(dir.file("bin"));
  const int status = rng.uniform_int(1, 120);
  const std::string word = "enc" + std::to_string(rng.uniform_int(0, 99999));
  write_file(dir.file("bin/ffmpeg"), "#!/bin/sh\nprintf 'Unknown encoder \\033[31m" + word +
                                         "\\033[0m\\nsecond line\\n' >&2\nexit " + std::to_string(status) + "\n");
  fs::permissions(dir.file("bin/ffmpeg"), fs::perms::owner_all);
  const char* path = std::getenv("PATH");
  const std::string clip = dir.file("clip.mp4");
  const ProcessResult r = run_process(
      viewer_command({true, "cpu", "cube", 100, "", 8, 320, 240, "", {"--record", clip}}), kNoDisplay,
      {"PATH=" + dir.file("bin") + ":" + (path ? path : "/usr/bin:/bin")}, 60);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::vector<std::string> lines = r.err_lines();
  ASSERT_EQ(lines.size(), 1u) << r.err;
  for (const std::string& needle : {"--record " + clip, "ffmpeg exited with status " + std::to_string(status) +
                                                             ": Unknown encoder \\x1b[31m" + word + "\\x1b[0m",
                                    std::string("the clip was not written")})
    EXPECT_NE(lines[0].find(needle), std::string::npos) << needle << " in: " << lines[0];
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << "ffmpeg's raw bytes reached the terminal";
  EXPECT_FALSE(fs::exists(clip));
  EXPECT_FALSE(has_temporary(dir.path()));
}

}  // namespace
}  // namespace coalesce::testing
