// The one output writer (see output_file.h): path checks, then temporary file + fsync + rename.
#include "sim/output_file.h"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "sim/errors.h"
#include "sim/exit_ledger.h"
#include "sim/file_type.h"
#include "sim/path_parts.h"

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

// What to do about a write that failed with `error`: the cause in words and a fix that works for it.
std::string fix_for(int error, const std::string& target) {
  switch (error) {
    case ENOSPC:
      return "the disk is full: free some space on it, or pick another path";
    case EDQUOT:
      return "your disk quota is used up: free some space in it, or pick another path";
    case EFBIG:
      return "the file is larger than the file size limit (ulimit -f): raise it (ulimit -f unlimited), or "
             "pick a smaller output";
    case EROFS:
      return "the file system is read-only: pick a path on a writable one";
    case EACCES:
    case EPERM:
      return "permission denied: check the permissions of " + parent_of(target) + ", or pick another path";
    case ENOENT:
    case ENOTDIR:
      return "the directory " + parent_of(target) +
             " was removed during the run: create it again, or pick "
             "another path";
    case EIO:
      return "an I/O error: the disk may be failing (see dmesg); pick another disk";
    default:
      return "pick another path";
  }
}

// "; X is untouched", "; nothing was written", or for several files what became of each.
std::string kept_text(const std::vector<const OutputFile*>& files, const std::vector<bool>& existed) {
  if (files.size() == 1)
    return existed[0] ? "; " + files[0]->shown + " is untouched" : "; nothing was written";
  std::string untouched, absent;
  int n_untouched = 0, n_absent = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    std::string& list = existed[i] ? untouched : absent;
    (existed[i] ? n_untouched : n_absent)++;
    list += (list.empty() ? "" : " and ") + files[i]->shown;
  }
  if (n_absent == 0)
    return "; " + std::string(n_untouched == 2 ? "both " : "") + untouched + " are untouched";
  if (n_untouched == 0) return n_absent == 2 ? "; neither was written" : "; none was written";
  return "; " + untouched + (n_untouched == 1 ? " is" : " are") + " untouched and " + absent +
         (n_absent == 1 ? " was" : " were") + " not written";
}

// `files[failed]` could not be written because of `error` (`why` describes it when not errno's words).
[[noreturn]] void write_failed(const std::vector<const OutputFile*>& files, const std::vector<bool>& existed,
                               std::size_t failed, int error, const std::string& why = "") {
  const OutputFile& file = *files[failed];
  std::string subject = file.flag + " " + file.shown;
  for (std::size_t i = 0; i < files.size(); ++i)
    if (i != failed) subject += " and " + files[i]->flag + " " + files[i]->shown;
  const std::string which = files.size() > 1 ? " " + file.shown : "";
  throw RuntimeFailure(subject + ": cannot write" + which + " (" +
                       (why.empty() ? std::strerror(error) : why) + ")" + kept_text(files, existed) + "; " +
                       (why.empty() ? fix_for(error, file.target) : "pick another path"));
}

// The owner of a file, for a message: "user alice" or "uid 1234".
std::string owner_name(uid_t uid) {
  passwd entry{};
  passwd* found = nullptr;
  char buffer[4096];
  if (::getpwuid_r(uid, &entry, buffer, sizeof buffer, &found) == 0 && found)
    return "user " + std::string(found->pw_name);
  return "uid " + std::to_string(uid);
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
  if (!error) error = write_and_sync(fd, pieces);
  if (::close(fd) != 0 && !error) error = errno;
  return error;
}

// A new hidden file beside the target, created exclusively (the kernel applies the umask to 0666).
int create_temporary(const std::string& target, std::string& name) {
  std::random_device random;
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = parent_of(target) + "/" + hidden_temporary_name(name_of(target), random());
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

namespace {

enum class CheckTime { BeforeRun, AtWrite };

// check_output_path and recheck_output_path: before the run a bad path is the user's to fix (exit 2); at
// write time it changed during the run (exit 1).
OutputFile check_path(std::string_view flag, const std::string& path, StdoutUse use, CheckTime when) {
  const auto refuse = [when](const std::string& message) -> void {
    if (when == CheckTime::BeforeRun) throw UsageError(message);
    throw RuntimeFailure(message);
  };
  OutputFile file{std::string(flag), path, path, false};
  const std::string where = std::string(flag) + " " + path;
  if (path.empty()) refuse(std::string(flag) + " needs a file path");
  if (path == "-") {
    if (use == StdoutUse::Refuse)
      refuse(where + ": this output cannot go to standard output; give a file path");
    file.to_stdout = true;
    return file;
  }
  const Resolved r = resolve_links(flag, path);
  file.target = r.path;
  // Creating a file through a link would put it somewhere the user may not expect (docs/reliability.md).
  if (r.through_link && !r.exists)
    refuse(where + " is a symlink to " + r.path +
           ", which does not exist; coalesce does not create files "
           "through a dangling link (give " +
           r.path + " itself, or point the link at an existing file)");
  const std::string via = r.through_link ? " (the symlink's target " + r.path + ")" : "";
  const uid_t me = ::geteuid();
  if (r.exists) {
    if (S_ISDIR(r.status.st_mode)) refuse(where + via + " is a directory; give a file path");
    if (!S_ISREG(r.status.st_mode))
      refuse(where + via + " is " + file_type_name(r.status.st_mode) +
             ", not a regular file; coalesce replaces only regular files (give a file path)");
    const bool mine = r.status.st_uid == me || me == 0;  // chmod works only for the owner (or root)
    // On a read-only mount no chmod helps, root's included: the advice follows the cause.
    const bool writable = ::access(r.path.c_str(), W_OK) == 0;
    if (!writable && errno == EROFS) refuse(where + via + ": " + fix_for(EROFS, r.path));
    if (!writable || (r.status.st_mode & 0222) == 0)
      refuse(mine ? where + via + " is read-only; make it writable (chmod u+w " + r.path +
                        ") or pick another path"
                  : where + via + " belongs to " + owner_name(r.status.st_uid) +
                        " and is not writable for you, which chmod cannot change; pick another path");
  }
  const std::string dir = parent_of(r.path);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    refuse(when == CheckTime::BeforeRun ? where + via + ": directory '" + dir +
                                              "' does not exist (create it first, or pick another path)"
                                        : where + via + ": the directory '" + dir +
                                              "' was removed during the run (create it again, "
                                              "or pick another path)");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    refuse(errno == EROFS ? where + via + ": directory '" + dir + "': " + fix_for(EROFS, r.path)
                          : where + via + ": directory '" + dir + "' is not writable (" +
                                std::strerror(errno) + "; pick another path)");
  // In a sticky directory (/tmp) only the file's owner, the directory's or root may rename over it.
  if (r.exists && (st.st_mode & S_ISVTX) && me != 0 && r.status.st_uid != me && st.st_uid != me)
    refuse(where + via + " belongs to " + owner_name(r.status.st_uid) + " and its directory '" + dir +
           "' is sticky (like /tmp), where only a file's owner may replace it; pick another path");
  return file;
}

}  // namespace

int write_and_sync(int fd, const std::vector<std::string_view>& pieces) {
  for (std::string_view piece : pieces)
    if (const int error = write_all(fd, piece); error != 0) return error;
  return ::fsync(fd) != 0 ? errno : 0;
}

std::string hidden_temporary_name(const std::string& name, unsigned draw) {
  char suffix[32];
  std::snprintf(suffix, sizeof suffix, ".%08x.tmp", draw);
  return "." + name + suffix;
}

std::string fix_for_write_error(int error, const std::string& target) {
  return fix_for(error, target);
}

std::string final_target(const std::string& path) {
  try {
    return resolve_links("", path).path;
  } catch (const UsageError&) {
    return path;  // a loop or an unreadable link: whoever opens the path says what is wrong with it
  }
}

OutputFile check_output_path(std::string_view flag, const std::string& path, StdoutUse use) {
  return check_path(flag, path, use, CheckTime::BeforeRun);
}

OutputFile recheck_output_path(std::string_view flag, const std::string& path, StdoutUse use) {
  return check_path(flag, path, use, CheckTime::AtWrite);
}

// One file on its way: its ledger entry, the file it replaces, and the temporary beside it.
struct StagedOutput {
  const OutputFile* file = nullptr;
  std::unique_ptr<exit_ledger::LedgerWrite> ledger;
  bool existed = false;
  struct stat before {};
  std::string temporary;  // "" once renamed or removed
  std::string backup;     // a hard link of the old file while several are being replaced
};

namespace {

using Staged = std::vector<StagedOutput>;

// The temporary of `out`, created and recorded in the ledger in one step, then filled; 0 or the errno.
int stage(StagedOutput& out, const std::vector<std::string_view>& pieces) {
  out.ledger = std::make_unique<exit_ledger::LedgerWrite>(out.file->target);
  out.existed = ::stat(out.file->target.c_str(), &out.before) == 0;
  out.ledger->set_existed(out.existed);
  int fd = -1;
  {
    const exit_ledger::CriticalSection section;
    fd = create_temporary(out.file->target, out.temporary);
    if (fd < 0) {
      out.temporary.clear();
      return errno;
    }
    out.ledger->set_temporary(out.temporary);
  }
  return fill_temporary(fd, out.existed ? &out.before : nullptr, pieces);
}

void discard(StagedOutput& out) {
  const exit_ledger::CriticalSection section;
  if (!out.temporary.empty()) ::unlink(out.temporary.c_str());
  out.temporary.clear();
  if (out.ledger) out.ledger->set_temporary("");
}

[[noreturn]] void fail_all(Staged& staged, std::size_t failed, int error, const std::string& why = "") {
  std::vector<const OutputFile*> files;
  std::vector<bool> existed;
  for (StagedOutput& out : staged) {
    discard(out);
    files.push_back(out.file);
    existed.push_back(out.existed);
  }
  write_failed(files, existed, failed, error, why);
}

// A hard link of `target` beside it under a fresh hidden name: the old file, kept until every rename is done.
int link_backup(const std::string& target, std::string& name) {
  std::random_device random;
  for (int attempt = 0; attempt < 100; ++attempt) {
    name = parent_of(target) + "/" + hidden_temporary_name(name_of(target), random());
    if (::link(target.c_str(), name.c_str()) == 0) return 0;
    if (errno != EEXIST) break;
  }
  const int error = errno;
  name.clear();
  return error;
}

// Puts back outputs [0, renamed) after a later rename failed; false if one could not be put back.
bool roll_back(Staged& staged, std::size_t renamed) {
  bool all = true;
  for (std::size_t i = 0; i < renamed; ++i) {
    const std::string& target = staged[i].file->target;
    if (!staged[i].backup.empty())
      all = ::rename(staged[i].backup.c_str(), target.c_str()) == 0 && all;
    else
      all = ::unlink(target.c_str()) == 0 && all;  // it was new: the file there now is the one we made
    staged[i].backup.clear();
  }
  return all;
}

void drop_backups(Staged& staged) {
  for (StagedOutput& out : staged)
    if (!out.backup.empty()) ::unlink(out.backup.c_str());
}

// Every temporary is complete and synced: refuse if something that is not a regular file took a target's
// place since the check, else rename them all over their targets (backed up when there are several, so a
// failed rename undoes the others) and sync the directories. Removes the temporaries on failure.
void commit_all(Staged& staged) {
  for (std::size_t i = 0; i < staged.size(); ++i) {
    struct stat now {};
    if (::stat(staged[i].file->target.c_str(), &now) == 0 && !S_ISREG(now.st_mode))
      fail_all(staged, i, 0, staged[i].file->target + " is now " + file_type_name(now.st_mode));
  }
  {
    // Signals wait until the renames and the ledger agree, so a run ended at once reports them exactly.
    const exit_ledger::CriticalSection section;
    if (staged.size() > 1)
      for (std::size_t i = 0; i < staged.size(); ++i)
        if (staged[i].existed)
          if (const int error = link_backup(staged[i].file->target, staged[i].backup); error != 0) {
            drop_backups(staged);
            fail_all(staged, i, error,
                     std::string("cannot keep the previous file while replacing: ") + std::strerror(error));
          }
    for (std::size_t i = 0; i < staged.size(); ++i) {
      if (::rename(staged[i].temporary.c_str(), staged[i].file->target.c_str()) == 0) {
        staged[i].temporary.clear();
        continue;
      }
      const int error = errno;
      if (!roll_back(staged, i)) {
        drop_backups(staged);
        fail_all(staged, i, error,
                 std::string(std::strerror(error)) + ", and a file renamed before it could not be put back");
      }
      drop_backups(staged);
      fail_all(staged, i, error);
    }
    for (StagedOutput& out : staged) out.ledger->mark_written();
    drop_backups(staged);
  }
  // The renames reach the disk with their directories: best effort, the data itself is already synced.
  for (const StagedOutput& out : staged) {
    const int dir = ::open(parent_of(out.file->target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
      ::fsync(dir);
      ::close(dir);
    }
  }
}

}  // namespace

void write_outputs_together(const std::vector<OutputContent>& outputs) {
  Staged staged(outputs.size());
  for (std::size_t i = 0; i < outputs.size(); ++i) staged[i].file = &outputs[i].file;
  for (std::size_t i = 0; i < outputs.size(); ++i)
    if (const int error = stage(staged[i], outputs[i].pieces); error != 0) fail_all(staged, i, error);
  commit_all(staged);
}

void write_output(const OutputFile& file, const std::vector<std::string_view>& pieces) {
  if (file.to_stdout) return write_to_stdout(file, pieces);
  write_outputs_together({{file, pieces}});
}

PendingOutput::PendingOutput(const OutputFile& file)
    : m_file(file), m_staged(std::make_unique<StagedOutput>()) {
  if (file.to_stdout) throw RuntimeFailure(file.flag + ": this output cannot go to standard output");
  m_staged->file = &m_file;
  if (const int error = stage(*m_staged, {}); error != 0) {
    Staged one(1);
    one[0] = std::move(*m_staged);
    m_committed = true;
    fail_all(one, 0, error);
  }
}

PendingOutput::~PendingOutput() {
  if (!m_committed) discard(*m_staged);
}

const std::string& PendingOutput::temporary() const {
  return m_staged->temporary;
}

bool PendingOutput::replaces_a_file() const {
  return m_staged->existed;
}

void PendingOutput::commit() {
  write_outputs_together({}, *this);
}

void write_outputs_together(const std::vector<OutputContent>& outputs, PendingOutput& pending) {
  // The pending file first: messages name it first.
  Staged staged(outputs.size() + 1);
  staged[0] = std::move(*pending.m_staged);
  for (std::size_t i = 0; i < outputs.size(); ++i) staged[i + 1].file = &outputs[i].file;
  pending.m_committed = true;  // from here on, its temporary is removed with the others on failure
  // Whoever filled the temporary may not have synced it.
  const int fd = ::open(staged[0].temporary.c_str(), O_RDONLY | O_CLOEXEC);
  int error = fd < 0 ? errno : 0;
  if (fd >= 0) {
    if (::fsync(fd) != 0) error = errno;
    ::close(fd);
  }
  if (error != 0) fail_all(staged, 0, error);
  for (std::size_t i = 0; i < outputs.size(); ++i)
    if (const int failed = stage(staged[i + 1], outputs[i].pieces); failed != 0)
      fail_all(staged, i + 1, failed);
  commit_all(staged);
}

}  // namespace coalesce
