// The one output writer (see output_file.h): path checks, then temporary file + fsync + rename.
#include "sim/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "sim/errors.h"
#include "sim/path_parts.h"
#include "sim/file_type.h"

namespace coalesce {
namespace {

struct Resolved {
  std::string path;  // the file the chain of symlinks ends at
  bool exists = false;
  struct stat status {};
  bool through_link = false;
};

// Follows symlinks one at a time, so a dangling link still names the file it would create.
Resolved resolve_links(std::string_view flag, const std::string& given) {
  Resolved r;
  r.path = given;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(r.path.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return r;
      throw UsageError(std::string(flag) + " " + given + ": cannot inspect " + r.path + " (" +
                       std::strerror(errno) + "); pick another path");
    }
    if (!S_ISLNK(st.st_mode)) {
      r.exists = true;
      r.status = st;
      return r;
    }
    if (hops >= 40)
      throw UsageError(std::string(flag) + " " + given + ": too many levels of symlinks; give a file path");
    std::string target(PATH_MAX, '\0');
    const ssize_t n = ::readlink(r.path.c_str(), target.data(), target.size());
    if (n < 0)
      throw UsageError(std::string(flag) + " " + given + ": cannot read the symlink " + r.path + " (" +
                       std::strerror(errno) + ")");
    target.resize(static_cast<std::size_t>(n));
    r.path = target[0] == '/' ? target : parent_of(r.path) + "/" + target;
    r.through_link = true;
  }
}

// Canonical name of a file that may not exist yet: its directory's real path plus its name.
std::string identity_of(const OutputFile& file) {
  if (file.to_stdout) return "-";
  char real[PATH_MAX];
  const std::string dir = parent_of(file.target);
  if (::realpath(dir.c_str(), real) == nullptr) return file.target;
  return std::string(real) + "/" + name_of(file.target);
}

[[noreturn]] void write_failed(const OutputFile& file, const std::string& why, bool existed) {
  const std::string keep = existed ? "; " + file.shown + " is untouched" : "; nothing was written";
  throw RuntimeFailure(file.flag + " " + file.shown + ": cannot write (" + why + ")" + keep +
                       " (free some space, or pick another path)");
}

// 0, or the errno of the first failure.
int write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), std::min<std::size_t>(bytes.size(), 1u << 30));
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// Permissions (and owner, where we may set them) of the file being replaced, the bytes, fsync, close.
// Closes `fd` in every case; returns 0 or the errno of the first failure.
int fill_temporary(int fd, const struct stat* replaced, const std::vector<std::string_view>& pieces) {
  int error = 0;
  if (replaced && S_ISREG(replaced->st_mode)) {
    if (::fchmod(fd, replaced->st_mode & 07777) != 0) error = errno;
    if (!error && ::geteuid() == 0 && ::fchown(fd, replaced->st_uid, replaced->st_gid) != 0) error = errno;
  }
  for (std::string_view piece : pieces)
    if (!error) error = write_all(fd, piece);
  if (!error && ::fsync(fd) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  return error;
}

// A new hidden file beside the target, created exclusively (the kernel applies the umask to 0666).
int create_temporary(const std::string& target, std::string& name) {
  std::random_device random;
  for (int attempt = 0; attempt < 100; ++attempt) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, ".%08x.tmp", static_cast<unsigned>(random()));
    name = parent_of(target) + "/." + name_of(target) + suffix;
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

void write_to_stdout(const OutputFile& file, const std::vector<std::string_view>& pieces) {
  for (std::string_view piece : pieces)
    if (std::fwrite(piece.data(), 1, piece.size(), stdout) != piece.size()) break;
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    throw RuntimeFailure(file.flag + " -: cannot write to standard output (" + std::strerror(errno) + ")");
}

}  // namespace

OutputFile check_output_path(std::string_view flag, const std::string& path, StdoutUse use) {
  OutputFile file{std::string(flag), path, path, false};
  const std::string where = std::string(flag) + " " + path;
  if (path.empty()) throw UsageError(std::string(flag) + " needs a file path");
  if (path == "-") {
    if (use == StdoutUse::Refuse)
      throw UsageError(where + ": this output cannot go to standard output; give a file path");
    file.to_stdout = true;
    return file;
  }
  const Resolved r = resolve_links(flag, path);
  file.target = r.path;
  const std::string via = r.through_link ? " (the symlink's target " + r.path + ")" : "";
  if (r.exists) {
    if (S_ISDIR(r.status.st_mode)) throw UsageError(where + via + " is a directory; give a file path");
    if (!S_ISREG(r.status.st_mode))
      throw UsageError(where + via + " is " + file_type_name(r.status.st_mode) +
                       ", not a regular file; coalesce replaces only regular files (give a file path)");
    if (::access(r.path.c_str(), W_OK) != 0 || (r.status.st_mode & 0222) == 0)
      throw UsageError(where + via + " is read-only; make it writable (chmod u+w) or pick another path");
  }
  const std::string dir = parent_of(r.path);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw UsageError(where + via + ": directory '" + dir +
                     "' does not exist (create it first, or pick another path)");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw UsageError(where + via + ": directory '" + dir + "' is not writable (" + std::strerror(errno) +
                     "; pick another path)");
  return file;
}

void check_distinct_outputs(const std::vector<OutputFile>& outputs) {
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    if (outputs[i].empty()) continue;
    for (std::size_t j = i + 1; j < outputs.size(); ++j) {
      if (outputs[j].empty() || identity_of(outputs[i]) != identity_of(outputs[j])) continue;
      throw UsageError(outputs[j].flag + " " + outputs[j].shown + " is the same file as " + outputs[i].flag +
                       " " + outputs[i].shown + ", which it would overwrite; give them different paths");
    }
  }
}

namespace {

// The temporary is complete and synced: refuse if something that is not a regular file took the target's
// place since the check, else rename it over the target and sync the directory. Removes the temporary on
// failure.
void replace_with(const OutputFile& file, const std::string& temporary, bool existed) {
  struct stat now {};
  if (::stat(file.target.c_str(), &now) == 0 && !S_ISREG(now.st_mode)) {
    ::unlink(temporary.c_str());
    write_failed(file, file.target + " is now " + file_type_name(now.st_mode), existed);
  }
  if (::rename(temporary.c_str(), file.target.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    write_failed(file, std::strerror(error), existed);
  }
  // The rename reaches the disk with its directory: best effort, the data itself is already synced.
  const int dir = ::open(parent_of(file.target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace

void write_output(const OutputFile& file, const std::vector<std::string_view>& pieces) {
  if (file.to_stdout) return write_to_stdout(file, pieces);
  struct stat before {};
  const bool existed = ::stat(file.target.c_str(), &before) == 0;
  std::string temporary;
  const int fd = create_temporary(file.target, temporary);
  if (fd < 0) write_failed(file, std::strerror(errno), existed);
  if (const int error = fill_temporary(fd, existed ? &before : nullptr, pieces); error != 0) {
    ::unlink(temporary.c_str());
    write_failed(file, std::strerror(error), existed);
  }
  replace_with(file, temporary, existed);
}

PendingOutput::PendingOutput(const OutputFile& file) : m_file(file) {
  if (file.to_stdout) throw RuntimeFailure(file.flag + ": this output cannot go to standard output");
  struct stat before {};
  m_existed = ::stat(file.target.c_str(), &before) == 0;
  const int fd = create_temporary(file.target, m_temporary);
  if (fd < 0) write_failed(file, std::strerror(errno), m_existed);
  if (const int error = fill_temporary(fd, m_existed ? &before : nullptr, {}); error != 0) {
    ::unlink(m_temporary.c_str());
    write_failed(file, std::strerror(error), m_existed);
  }
}

PendingOutput::~PendingOutput() {
  if (!m_committed) ::unlink(m_temporary.c_str());
}

void PendingOutput::commit() {
  // Whoever filled the temporary may not have synced it.
  const int fd = ::open(m_temporary.c_str(), O_RDONLY | O_CLOEXEC);
  int error = fd < 0 ? errno : 0;
  if (fd >= 0) {
    if (::fsync(fd) != 0) error = errno;
    ::close(fd);
  }
  m_committed = true;  // replace_with removes the temporary itself when it fails
  if (error != 0) {
    ::unlink(m_temporary.c_str());
    write_failed(m_file, std::strerror(error), m_existed);
  }
  replace_with(m_file, m_temporary, m_existed);
}

}  // namespace coalesce
