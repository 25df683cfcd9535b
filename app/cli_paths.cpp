// The command-line checks that touch the file system, run before any work so a bad path loses nothing.
#include <unistd.h>

#include <filesystem>
#include <string>

#include "app/cli.h"
#include "app/errors.h"
#include "sim/scene.h"

namespace coalesce {
namespace {

namespace fs = std::filesystem;

// The file itself is not created here: it may be the --load-state input, which must survive until read.
void check_output(std::string_view flag, const std::string& path) {
  if (path.empty()) return;
  fs::path parent = fs::path(path).parent_path();
  if (parent.empty()) parent = ".";
  std::error_code error;
  if (!fs::is_directory(parent, error))
    throw UsageError(std::string(flag) + " " + path + ": directory '" + parent.string() +
                     "' does not exist (create it first, or pick another path)");
  if (fs::is_directory(path, error))
    throw UsageError(std::string(flag) + " " + path + " is a directory; give a file path");
  if (::access(parent.c_str(), W_OK) != 0)
    throw UsageError(std::string(flag) + " " + path + ": directory '" + parent.string() +
                     "' is not writable (pick another path)");
}

void check_input(std::string_view flag, const std::string& path) {
  if (path.empty()) return;
  std::error_code error;
  if (!fs::exists(path, error))
    throw UsageError(std::string(flag) + " " + path + ": no such file (check the path)");
  if (fs::is_directory(path, error))
    throw UsageError(std::string(flag) + " " + path + " is a directory; give a file path");
  if (::access(path.c_str(), R_OK) != 0)
    throw UsageError(std::string(flag) + " " + path + ": file is not readable (check its permissions)");
}

std::string preset_list() {
  std::string list;
  for (const std::string& name : preset_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace

void check_paths(const Options& options) {
  if (!is_preset(options.scene)) {
    std::error_code error;
    if (!fs::exists(options.scene, error))
      throw UsageError("--scene '" + options.scene + "' is neither a preset (" + preset_list() +
                       ") nor an existing file (check the name or path)");
    check_input("--scene", options.scene);
  }
  check_input("--load-state", options.load_state);
  check_output("--save-state", options.save_state);
  check_output("--screenshot", options.screenshot);
  check_output("--json", options.json);
}

}  // namespace coalesce
