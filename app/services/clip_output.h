// Where a clip goes (--record, or the panel's record button), checked before the first frame: PATH.mp4
// through the ffmpeg program, or a new or empty directory that receives numbered PNGs; the JSON goes beside.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sim/output_file.h"

namespace coalesce {

enum class ClipFormat { Mp4, PngSequence };

struct ClipOutputs {
  ClipFormat format = ClipFormat::PngSequence;
  std::string flag;            // "--record", or "record" for the panel's, for messages
  std::string shown;           // the path as the user gave it
  OutputFile video;            // Mp4: the file the finished clip replaces or creates
  std::string directory;       // PngSequence: where frame-000000.png ... go (trailing slashes dropped)
  bool directory_exists = false;  // PngSequence: false means it is created when recording starts
  OutputFile json;             // PATH.json (out/clip.mp4 -> out/clip.json; out/frames/ -> out/frames.json)
  std::string ffmpeg;          // Mp4: the program that encodes, found on PATH
};

// Throws UsageError naming `flag`, the path and the fix: an unknown extension, .mp4 without ffmpeg or of a
// frame size ffmpeg refuses (when `width` x `height` is known: not 0), a directory that already holds files
// (coalesce never writes over them), an unwritable place.
ClipOutputs check_clip_outputs(std::string_view flag, const std::string& path, int width = 0, int height = 0);

// Throws UsageError when `clip` is an .mp4 and ffmpeg would refuse its width x height frames.
void check_clip_frame_size(const ClipOutputs& clip, int width, int height);

// Names the clip's files in the line of a run that a new request ends at once (app/services/interrupt.h).
void plan_clip_outputs(const ClipOutputs& clip);

// The first executable regular file called `name` in PATH's directories, or "" when there is none.
std::string find_program(std::string_view name);

// The PNG of frame `index` in a PNG-sequence clip: DIR/frame-000123.png (ffmpeg -i DIR/frame-%06d.png).
std::string clip_frame_path(const std::string& directory, long index);

}  // namespace coalesce
