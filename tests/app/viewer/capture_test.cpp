// Clips and reproducible cameras through the real executable, headless on Mesa with the CPU backend:
// --record to a PNG sequence and to .mp4 (decoded again by ffmpeg), the clip's JSON, the refusals before
// the run, and --camera-from giving the same picture again.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/app/viewer/screenshot_checks.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {
namespace {

using nlohmann::json;

const std::vector<std::string> kNoDisplay{"DISPLAY", "WAYLAND_DISPLAY"};

// A headless clip command: no --frames (--record-seconds ends the run), no screenshot.
std::vector<std::string> clip_command(const std::string& path, int fps, double seconds, int width, int height,
                                      int particles, const std::vector<std::string>& extra = {}) {
  ViewerArgs args;
  args.particles = particles;
  args.width = width;
  args.height = height;
  std::vector<std::string> command = viewer_command(args);
  // viewer_command always gives --frames: drop it, the clip's length must end the run by itself.
  for (std::size_t i = 0; i + 1 < command.size(); ++i)
    if (command[i] == "--frames") command.erase(command.begin() + static_cast<long>(i), command.begin() + static_cast<long>(i) + 2);
  for (const std::string& a : {std::string("--record"), path, std::string("--record-fps"), std::to_string(fps),
                               std::string("--record-seconds"), std::to_string(seconds)})
    command.push_back(a);
  command.insert(command.end(), extra.begin(), extra.end());
  return command;
}

// Pixels of the particle area (right of the panel) brighter than the background: a drawn frame has many.
int bright_particle_pixels(const unsigned char* rgba, int width, int height) {
  int bright = 0;
  for (int y = 0; y < height; ++y)
    for (int x = kPanelWidthPixels + 2; x < width; ++x) {
      const unsigned char* p = rgba + (static_cast<std::size_t>(y) * width + x) * 4;
      bright += (p[0] * 3 + p[1] * 6 + p[2]) / 10 > 60;
    }
  return bright;
}

// Text pixels inside the panel: the clip records the panel too.
int panel_text_pixels(const unsigned char* rgba, int width, int height) {
  int text = 0;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < std::min(width, kPanelWidthPixels); ++x) {
      const unsigned char* p = rgba + (static_cast<std::size_t>(y) * width + x) * 4;
      text += (p[0] * 3 + p[1] * 6 + p[2]) / 10 > 180;
    }
  return text;
}

void expect_clip_json(const std::string& path, const std::string& format, long frames, int fps, int width,
                      int height) {
  const json j = json::parse(read_file(path), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << path << " does not parse";
  EXPECT_EQ(j.at("schema"), "coalesce-clip/1");
  const json& clip = j.at("clip");
  EXPECT_EQ(clip.at("format"), format);
  EXPECT_EQ(clip.at("frames"), frames);
  EXPECT_EQ(clip.at("fps"), fps);
  EXPECT_EQ(clip.at("width"), width);
  EXPECT_EQ(clip.at("height"), height);
  EXPECT_EQ(clip.at("ended"), "--record-seconds reached");
  for (const char* key : {"settings", "camera", "device", "image", "end"}) EXPECT_TRUE(j.contains(key)) << key;
  // One simulation step per recorded frame, whatever the frame took; the kernels of each frame recorded.
  const json& list = j.at("frames");
  ASSERT_EQ(static_cast<long>(list.size()), frames);
  for (std::size_t i = 1; i < list.size(); ++i)
    ASSERT_EQ(list[i].at("step").get<long>(), list[i - 1].at("step").get<long>() + 1) << "frame " << i;
  int with_kernels = 0;
  for (const json& f : list) with_kernels += !f.at("kernels").empty();
  EXPECT_GE(with_kernels, frames - 2) << "kernel numbers arrive with (nearly) every frame";
  EXPECT_EQ(clip.at("last_step").get<long>() - clip.at("first_step").get<long>(), frames - 1);
}

TEST(Capture, HeadlessClipToAPngSequence) {
  TestRng rng;
  TempDir dir;
  const int fps = rng.uniform_int(8, 20);
  const int width = rng.uniform_int(700, 900), height = rng.uniform_int(360, 480);
  const long frames = 2L * fps;
  const std::string clip = dir.file("frames");
  const ProcessResult r =
      run_process(clip_command(clip, fps, 2.0, width, height, rng.uniform_int(1024, 3072), {"--orbit", "40"}),
                  kNoDisplay);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + clip + " (" + std::to_string(frames) + " frames"), std::string::npos) << r.out;
  long files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(clip)) files += entry.is_regular_file();
  ASSERT_EQ(files, frames) << "one PNG per frame: " << fps << " fps for 2 s";
  Picture previous;
  for (long i = 0; i < frames; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame-%06ld.png", i);
    const Picture frame = load_picture(clip + "/" + name);
    ASSERT_EQ(frame.width, width) << name;
    ASSERT_EQ(frame.height, height) << name;
    EXPECT_GT(bright_particle_pixels(frame.rgba.data(), width, height), 200) << name << " shows no particles";
    EXPECT_GT(panel_text_pixels(frame.rgba.data(), width, height), 1000) << name << " has no panel";
    if (i > 0) {
      EXPECT_NE(frame.rgba, previous.rgba) << name << " repeats the frame before (--orbit 40)";
    }
    previous = frame;
  }
  expect_clip_json(dir.file("frames.json"), "png-sequence", frames, fps, width, height);
}

TEST(Capture, HeadlessClipToMp4DecodesToItsFrames) {
  if (!on_path("ffmpeg") || !on_path("ffprobe")) GTEST_SKIP() << "skipped: ffmpeg not installed (scripts/install-deps)";
  TestRng rng;
  TempDir dir;
  const int fps = rng.uniform_int(10, 30);
  // An odd side: yuv420p needs even ones, so ffmpeg pads one row or column.
  const int width = 2 * rng.uniform_int(350, 450) + 1, height = 2 * rng.uniform_int(180, 240);
  const long frames = 2L * fps;
  const std::string clip = dir.file("clip.mp4");
  const ProcessResult r =
      run_process(clip_command(clip, fps, 2.0, width, height, rng.uniform_int(1024, 3072)), kNoDisplay);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(std::filesystem::is_regular_file(clip)) << r.out << r.err;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << "temporary left behind";

  const ProcessResult probe = run_process({"ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
                                           "-show_entries", "stream=nb_read_frames,width,height,r_frame_rate",
                                           "-of", "json", clip});
  ASSERT_EQ(probe.exit_code, 0) << probe.err;
  const json stream = json::parse(probe.out).at("streams").at(0);
  EXPECT_EQ(stream.at("width"), width + 1);
  EXPECT_EQ(stream.at("height"), height);
  EXPECT_EQ(stream.at("nb_read_frames"), std::to_string(frames));
  EXPECT_EQ(stream.at("r_frame_rate"), std::to_string(fps) + "/1");

  // Every frame decoded back: particles and panel in each.
  const std::string raw = dir.file("frames.rgba");
  const ProcessResult decode =
      run_process({"ffmpeg", "-v", "error", "-i", clip, "-f", "rawvideo", "-pix_fmt", "rgba", "-y", raw});
  ASSERT_EQ(decode.exit_code, 0) << decode.err;
  const std::string bytes = read_file(raw);
  const std::size_t frame_bytes = static_cast<std::size_t>(width + 1) * height * 4;
  ASSERT_EQ(bytes.size(), frame_bytes * static_cast<std::size_t>(frames));
  for (long i = 0; i < frames; ++i) {
    const auto* rgba = reinterpret_cast<const unsigned char*>(bytes.data() + frame_bytes * static_cast<std::size_t>(i));
    EXPECT_GT(bright_particle_pixels(rgba, width + 1, height), 200) << "frame " << i << " shows no particles";
    EXPECT_GT(panel_text_pixels(rgba, width + 1, height), 1000) << "frame " << i << " has no panel";
  }
  expect_clip_json(dir.file("clip.json"), "mp4", frames, fps, width, height);
}

TEST(Capture, Mp4WithoutFfmpegIsRefusedBeforeTheRun) {
  TempDir dir;
  const std::string clip = dir.file("clip.mp4");
  // PATH without ffmpeg: an empty directory.
  const ProcessResult r = run_process(clip_command(clip, 30, 1.0, 640, 360, 1024), kNoDisplay,
                                      {"PATH=" + dir.file("")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  ASSERT_EQ(r.err_lines().size(), 1u) << r.err;
  EXPECT_NE(r.err.find("needs the ffmpeg program"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("apt install ffmpeg"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(dir.file("clip") + "/"), std::string::npos) << "the PNG-sequence alternative: " << r.err;
  EXPECT_FALSE(std::filesystem::exists(clip));
  EXPECT_FALSE(std::filesystem::exists(dir.file("clip.json")));
}

TEST(Capture, BadClipPathsAreRefusedBeforeTheRunAndTouchNothing) {
  TestRng rng;
  TempDir dir;
  // A directory that holds a file: coalesce never writes frames over what is there.
  std::filesystem::create_directory(dir.file("taken"));
  const std::string mine = "kept " + std::to_string(rng.uniform_int(0, 1 << 30));
  std::ofstream(dir.file("taken/frame-000000.png")) << mine;
  ::mkfifo(dir.file("fifo").c_str(), 0644);
  struct Case {
    std::string path;
    std::string says;
  };
  for (const Case& c : {Case{dir.file("taken"), "already holds files"}, Case{dir.file("clip.gif"), "not '.gif'"},
                        Case{dir.file("fifo"), "a FIFO"}, Case{dir.file("missing/clip"), "does not exist"}}) {
    const ProcessResult r = run_process(clip_command(c.path, 30, 1.0, 640, 360, 1024), kNoDisplay);
    EXPECT_EQ(r.exit_code, 2) << c.path << ": " << r.err;
    ASSERT_EQ(r.err_lines().size(), 1u) << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
  EXPECT_EQ(read_file(dir.file("taken/frame-000000.png")), mine);
  struct stat st {};
  ASSERT_EQ(::stat(dir.file("fifo").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode)) << "the FIFO is still a FIFO";
}

// Mean luminance, bright-pixel count and brightness centroid of a picture: what "the same picture" means
// here, with tolerances for a GPU's nondeterministic blending order.
struct PixelStats {
  double mean = 0, bright = 0, cx = 0, cy = 0;
};

PixelStats stats_of(const Picture& p) {
  PixelStats s;
  double weight = 0;
  for (int y = 0; y < p.height; ++y)
    for (int x = 0; x < p.width; ++x) {
      const int l = p.luminance(x, y);
      s.mean += l;
      s.bright += l > 40;
      weight += l;
      s.cx += l * x;
      s.cy += l * y;
    }
  s.mean /= static_cast<double>(p.width) * p.height;
  if (weight > 0) {
    s.cx /= weight;
    s.cy /= weight;
  }
  return s;
}

// Tolerance: 2% of mean and bright count, 2 px of centroid.
bool same_picture(const PixelStats& a, const PixelStats& b) {
  return std::fabs(a.mean - b.mean) <= 0.02 * a.mean && std::fabs(a.bright - b.bright) <= 0.02 * a.bright &&
         std::fabs(a.cx - b.cx) <= 2.0 && std::fabs(a.cy - b.cy) <= 2.0;
}

std::string describe(const PixelStats& s) {
  return "mean " + std::to_string(s.mean) + " bright " + std::to_string(s.bright) + " centroid " +
         std::to_string(s.cx) + "," + std::to_string(s.cy);
}

TEST(Capture, CameraFromGivesTheSamePictureAgain) {
  TestRng rng;
  TempDir dir;
  const int frames = rng.uniform_int(3, 8);
  const std::string yaw = std::to_string(rng.uniform(-180.0f, 180.0f));
  const std::string pitch = std::to_string(rng.uniform(-60.0f, 60.0f));
  const std::string distance = std::to_string(rng.uniform(5.0f, 12.0f));
  const std::string camera = yaw + "," + pitch + "," + distance + ",0.3,-0.2,0.1";
  const std::string layout(to_string(random_layout(rng)));
  ViewerArgs a;
  a.scene = rng.uniform_int(0, 1) ? "disk" : "galaxies";
  a.particles = rng.uniform_int(2048, 8192);
  a.layout = layout;
  a.frames = frames;
  a.width = rng.uniform_int(400, 700);
  a.height = rng.uniform_int(300, 500);
  a.screenshot = dir.file("a.png");
  a.extra = {"--camera", camera, "--brightness", std::to_string(rng.uniform(0.5f, 2.5f)), "--no-panel",
             "--dt", "0.002", "--seed", std::to_string(rng.uniform_int(1, 1 << 30))};
  const ProcessResult first = run_process(viewer_command(a), kNoDisplay);
  ASSERT_EQ(first.exit_code, 0) << first.err;

  // Only --camera-from, the frame count and the output: everything else must come from the file.
  const std::vector<std::string> again{coalesce_executable(), "--headless", "--backend", "cpu", "--frames",
                                       std::to_string(frames), "--camera-from", dir.file("a.json"),
                                       "--screenshot", dir.file("b.png")};
  const ProcessResult second = run_process(again, kNoDisplay);
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_NE(second.err.find("--camera-from " + dir.file("a.json") + ": restored scene " + a.scene),
            std::string::npos)
      << second.err;
  const json ja = load_screenshot_json(dir.file("a.json")), jb = load_screenshot_json(dir.file("b.json"));
  for (const char* key : {"settings", "camera", "image"}) EXPECT_EQ(ja.at(key), jb.at(key)) << key;
  const PixelStats sa = stats_of(load_picture(dir.file("a.png"))), sb = stats_of(load_picture(dir.file("b.png")));
  EXPECT_TRUE(same_picture(sa, sb)) << describe(sa) << " vs " << describe(sb);

  // The check can fail: the same run with the camera turned by 40 degrees and 25% further is another picture.
  std::vector<std::string> turned = again;
  turned.back() = dir.file("c.png");
  turned.insert(turned.end(), {"--camera", std::to_string(std::stod(yaw) + 40.0) + "," + pitch + "," +
                                               std::to_string(std::stod(distance) * 1.25) + ",0.3,-0.2,0.1"});
  const ProcessResult third = run_process(turned, kNoDisplay);
  ASSERT_EQ(third.exit_code, 0) << third.err;
  EXPECT_NE(third.err.find("the command line's --camera kept"), std::string::npos) << third.err;
  const PixelStats sc = stats_of(load_picture(dir.file("c.png")));
  EXPECT_FALSE(same_picture(sa, sc)) << "a turned camera gave the same statistics: " << describe(sc);
}

}  // namespace
}  // namespace coalesce::testing
