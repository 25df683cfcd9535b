// Clip paths (see clip_output.h).
#include "app/services/clip_output.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "app/services/interrupt.h"
#include "app/services/new_folder.h"
#include "app/services/run_files.h"
#include "sim/errors.h"
#include "sim/exit_ledger.h"
#include "sim/file_type.h"
#include "sim/path_parts.h"
#include "sim/printable.h"

namespace coalesce {
namespace {

ClipOutputs check_directory(std::string_view flag, const std::string& given) {
  const NewFolder folder = check_new_folder(flag, given, "out/clip");
  ClipOutputs clip;
  clip.flag = std::string(flag);
  clip.shown = given;
  clip.directory = folder.directory;
  clip.directory_exists = folder.exists;
  clip.json = check_output_path(std::string(flag) + "'s JSON", folder.directory + ".json");
  return clip;
}

}  // namespace

std::string find_program(std::string_view name) {
  // PATH only locates the program, as a shell would; it switches nothing else.
  const char* path = std::getenv("PATH");
  std::string dirs = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t colon = dirs.find(':', start);
    std::string dir = dirs.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + std::string(name);
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return "";
}

// ffmpeg refuses a picture whose (width + 128) x (height + 128) reaches INT_MAX / 8 (libavutil's
// av_image_check_size2; tried with ffmpeg 5.1 and libx264: 16384 x 16128 encodes, 16384 x 16129 and
// 16129 x 16384 do not). The clip's frames reach libx264 padded to even sides.
constexpr long long kFfmpegPictureLimit = 268435455;

void check_clip_frame_size(const ClipOutputs& clip, int width, int height) {
  if (clip.format != ClipFormat::Mp4) return;
  const long long even_width = width + width % 2, even_height = height + height % 2;
  if ((even_width + 128) * (even_height + 128) < kFfmpegPictureLimit) return;
  throw UsageError(clip.flag + " " + clip.shown + ": ffmpeg cannot encode frames of " + std::to_string(width) +
                   " x " + std::to_string(height) + " pixels (it refuses pictures whose (width + 128) x "
                   "(height + 128) reaches " + std::to_string(kFfmpegPictureLimit) + "); "
                   "give a smaller --width or --height, or record PNG frames: " + clip.flag + " " +
                   clip.shown.substr(0, clip.shown.size() - 4) + "/");
}

void plan_clip_outputs(const ClipOutputs& clip) {
  if (clip.format == ClipFormat::Mp4)
    plan_output(clip.video);
  else
    exit_ledger::plan_note(printable(clip.flag + " " + clip.shown) + ": the frames written so far stay");
  plan_output(clip.json);
}

ClipOutputs check_clip_outputs(std::string_view flag, const std::string& path, int width, int height) {
  if (path.empty()) throw UsageError(std::string(flag) + " needs PATH.mp4 or a directory");
  const bool names_directory = path.back() == '/';
  struct stat st {};
  const bool existing_directory = ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  const std::string extension =
      names_directory || existing_directory ? std::string() : lowercase_extension(path);
  if (extension.empty()) return check_directory(flag, path);
  if (extension != ".mp4")
    throw UsageError(std::string(flag) + " " + path + ": coalesce records PATH.mp4 (encoded by ffmpeg) or a "
                     "directory of PNGs, not '" + extension + "' (try " + std::string(flag) + " " +
                     path.substr(0, path.size() - extension.size()) + ".mp4)");
  ClipOutputs clip;
  clip.format = ClipFormat::Mp4;
  clip.flag = std::string(flag);
  clip.shown = path;
  clip.video = check_output_path(flag, path);
  clip.json = check_output_path(std::string(flag) + "'s JSON", path.substr(0, path.size() - 4) + ".json");
  check_run_files({clip.video, clip.json}, {}, {});
  clip.ffmpeg = find_program("ffmpeg");
  if (clip.ffmpeg.empty())
    throw UsageError(std::string(flag) + " " + path + ": an .mp4 needs the ffmpeg program, which is not on PATH "
                     "(install it: sudo apt install ffmpeg; or record PNG frames: " + std::string(flag) + " " +
                     path.substr(0, path.size() - 4) + "/)");
  if (width > 0 && height > 0) check_clip_frame_size(clip, width, height);
  return clip;
}

std::string clip_frame_path(const std::string& directory, long index) {
  char name[32];
  std::snprintf(name, sizeof name, "/frame-%06ld.png", index);
  return directory + name;
}

}  // namespace coalesce
