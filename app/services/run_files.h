// What one run reads and what it writes, matched before its first step so that no output can destroy an
// input or another output (docs/reliability.md, "Inputs and outputs"). Files are matched by identity:
// device and inode where the file exists (so hard links and symlinks count), its canonical path where it
// does not exist yet. A clip's folder of frames owns every name inside it.
#pragma once

#include <string>
#include <vector>

#include "app/services/options.h"
#include "sim/output_file.h"

namespace coalesce {

// A file the run reads, with the words that name it in messages ("--scene's file", "the state file
// --camera-from restored").
struct RunInput {
  std::string what;
  std::string path;
};

// A folder the run fills (a PNG clip's frames): no other output may go inside it.
struct OutputFolder {
  std::string flag;
  std::string shown;  // as the user gave it
  std::string path;
  std::string receives = "the clip's frames";  // for messages
};

// Every file `options` makes the run read: a --scene file, --load-state, --camera-from and the scene or
// state it restored, --compare's two runs, --from.
std::vector<RunInput> run_inputs(const Options& options);

// Throws UsageError, one line naming both flags, when an output is one of `inputs`, two outputs are one
// file, or an output (or a folder's own name) lies inside one of `folders`. Empty and "-" outputs are skipped.
void check_run_files(const std::vector<OutputFile>& outputs, const std::vector<OutputFolder>& folders,
                     const std::vector<RunInput>& inputs);

}  // namespace coalesce
