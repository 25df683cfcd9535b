// A folder a run fills with files it names itself (a clip's PNGs, a snapshot series): new, or existing and
// empty, so coalesce never writes over a file the user already has there, and never outside it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "sim/held_folder.h"

namespace coalesce {

struct NewFolder {
  std::string flag;       // "--record", "--snapshot-every", for messages
  std::string shown;      // the path as the user gave it
  std::string directory;  // trailing slashes dropped
  bool exists = false;    // false: created when the first file is written
  std::optional<FolderIdentity> identity;  // the existing folder as checked, which the run must still find
};

// Throws UsageError naming `flag`, the path and the fix: no name of its own ("." or ".."), not a directory,
// a directory that holds files, an unwritable place. `example` is a good path for the fix ("out/clip").
NewFolder check_new_folder(std::string_view flag, const std::string& given, std::string_view example);

// Creates the folder, or checks again that it is still empty: someone may have filled it since the check.
// Throws RuntimeFailure naming the path.
void create_new_folder(const NewFolder& folder);

// Whether directory `path` holds nothing; none when it cannot be read.
std::optional<bool> directory_is_empty(const std::string& path);

}  // namespace coalesce
