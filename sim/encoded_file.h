// A saved state as bytes, apart from writing them, so --save-state and a snapshot series write the same
// bytes each its own way (output_file.h, held_folder.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sim/output_file.h"

namespace coalesce {

// One file of a state: `bytes`, then `borrowed` (the records where they lie in memory, which must outlive
// it), written to the state's path followed by `suffix` ("" for the state, ".iord" for Tipsy's IDs).
struct EncodedFile {
  std::string suffix;
  std::string bytes;
  std::string_view borrowed;
  std::vector<std::string_view> pieces() const { return {bytes, borrowed}; }
};

// Where a companion of `file` goes: beside the regular file it writes (a symlink's target), not the link.
std::string companion_target(const OutputFile& file, const std::string& suffix);

// Writes `files` for `file` (the first is the state itself, the others its companions beside its target),
// all replaced or none (write_outputs_together). Throws RuntimeFailure as it does.
void write_encoded(const OutputFile& file, const std::vector<EncodedFile>& files);

}  // namespace coalesce
