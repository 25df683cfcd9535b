// New or empty folders (see new_folder.h).
#include "app/services/new_folder.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "sim/errors.h"
#include "sim/file_type.h"
#include "sim/output_file.h"
#include "sim/path_parts.h"

namespace coalesce {

std::optional<bool> directory_is_empty(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  const std::optional<bool> empty = directory_is_empty_at(fd);
  const int error = errno;
  ::close(fd);
  errno = error;  // the caller's message names why it could not be read
  return empty;
}

NewFolder check_new_folder(std::string_view flag, const std::string& given, std::string_view example) {
  NewFolder folder;
  folder.flag = std::string(flag);
  folder.shown = given;
  std::string dir = given;
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  folder.directory = dir;
  const std::string where = std::string(flag) + " " + given;
  const std::string name = name_of(dir);
  if (name == "." || name == ".." || name.empty())
    throw UsageError(where + ": give the directory a name of its own (try " + std::string(flag) + " " +
                     std::string(example) + ")");
  struct stat st {};
  if (::stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode))
      throw UsageError(where + " is " + file_type_name(st.st_mode) + ": give a new or empty directory");
    const std::optional<bool> empty = directory_is_empty(dir);
    if (!empty)
      throw UsageError(where + ": cannot read the directory (" + std::strerror(errno) +
                       "; pick another path)");
    if (!*empty)
      throw UsageError(where +
                       ": the directory already holds files, which coalesce never writes over (give a "
                       "new or empty directory)");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
      throw UsageError(where + ": the directory is not writable (" + std::strerror(errno) +
                       "; pick another path)");
    folder.exists = true;
    folder.identity = folder_identity(dir);
  } else {
    // A new name: the same checks as any new output file (its directory exists and is writable).
    check_output_path(flag, dir);
  }
  return folder;
}

void create_new_folder(const NewFolder& folder) {
  if (::mkdir(folder.directory.c_str(), 0777) == 0) return;
  if (errno != EEXIST)
    throw RuntimeFailure(folder.shown + ": cannot create the directory (" + std::strerror(errno) +
                         "; pick another path)");
  if (directory_is_empty(folder.directory) != true)
    throw RuntimeFailure(folder.shown +
                         ": the directory now holds files, which coalesce never writes over "
                         "(give a new or empty directory)");
}

}  // namespace coalesce
