// HeldFolder (see held_folder.h): temporaries created in the held folder, linked to new names or renamed
// over the folder's own files, every path relative to its descriptor.
#include "sim/held_folder.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <random>

#include "sim/errors.h"
#include "sim/exit_ledger.h"
#include "sim/output_file.h"

namespace coalesce {

// One file on its way: its temporary in the folder, recorded in the exit ledger while it exists.
struct HeldFolder::Staged {
  std::string name;
  std::string temporary;
  std::unique_ptr<exit_ledger::LedgerWrite> ledger;
  dev_t device = 0;
  ino_t inode = 0;
};

namespace {

// The path by which the exit ledger's signal handler reaches a file in the held folder, wherever it is now.
std::string through_descriptor(int fd, const std::string& name) {
  return "/proc/self/fd/" + std::to_string(fd) + "/" + name;
}

bool same_file(int fd, const std::string& name, std::pair<dev_t, ino_t> expected) {
  struct stat st {};
  return ::fstatat(fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
         st.st_dev == expected.first && st.st_ino == expected.second;
}

}  // namespace

std::optional<bool> directory_is_empty_at(int fd) {
  const int copy = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (copy < 0) return std::nullopt;
  DIR* dir = ::fdopendir(copy);
  if (!dir) {
    ::close(copy);
    return std::nullopt;
  }
  bool empty = true;
  while (const dirent* entry = ::readdir(dir))
    if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
      empty = false;
      break;
    }
  ::closedir(dir);
  return empty;
}

std::optional<FolderIdentity> folder_identity(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) return std::nullopt;
  return FolderIdentity{st.st_dev, st.st_ino};
}

HeldFolder::HeldFolder(std::string flag, std::string path, std::optional<FolderIdentity> expected)
    : m_flag(std::move(flag)), m_path(std::move(path)) {
  m_fd = ::open(m_path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const std::string where = m_flag + " " + m_path;
  if (m_fd < 0)
    throw RuntimeFailure(where + ": cannot open the directory (" + std::strerror(errno) +
                         "); give a new or empty directory");
  struct stat st {};
  const bool swapped = ::fstat(m_fd, &st) != 0 ||
                       (expected && (st.st_dev != expected->device || st.st_ino != expected->inode));
  if (swapped || directory_is_empty_at(m_fd) != true) {
    ::close(m_fd);
    m_fd = -1;
    throw RuntimeFailure(where +
                         (swapped ? ": the path now names another directory than the one checked "
                                    "before the run"
                                  : ": the directory now holds files") +
                         ", and coalesce never writes over a file there (give a new or empty directory)");
  }
}

HeldFolder::~HeldFolder() {
  if (m_fd >= 0) ::close(m_fd);
}

void HeldFolder::fail(const std::string& name, int error, const std::string& kept) const {
  const std::string file = m_path + "/" + name;
  throw RuntimeFailure(m_flag + " " + file + ": cannot write (" + std::strerror(error) + ")" + kept + "; " +
                       fix_for_write_error(error, file));
}

HeldFolder::Staged HeldFolder::stage(const NamedBytes& file) const {
  Staged out;
  out.name = file.name;
  out.ledger = std::make_unique<exit_ledger::LedgerWrite>(m_path + "/" + file.name);
  std::random_device random;
  int fd = -1;
  {
    const exit_ledger::CriticalSection section;
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
      out.temporary = hidden_temporary_name(file.name, random());
      fd = ::openat(m_fd, out.temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
      if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
      const int error = errno;
      out.temporary.clear();
      fail(file.name, error, "; nothing was written");
    }
    out.ledger->set_temporary(through_descriptor(m_fd, out.temporary));
  }
  int error = write_and_sync(fd, file.pieces);
  struct stat st {};
  if (!error && ::fstat(fd, &st) != 0) error = errno;
  if (::close(fd) != 0 && !error) error = errno;
  out.device = st.st_dev;
  out.inode = st.st_ino;
  if (error) {
    const exit_ledger::CriticalSection section;
    ::unlinkat(m_fd, out.temporary.c_str(), 0);
    out.ledger->set_temporary("");
    fail(file.name, error, "; nothing was written");
  }
  return out;
}

void HeldFolder::write_new(const std::vector<NamedBytes>& files) {
  std::vector<Staged> staged;
  const auto discard = [&] {
    const exit_ledger::CriticalSection section;
    for (Staged& s : staged) {
      ::unlinkat(m_fd, s.temporary.c_str(), 0);
      s.ledger->set_temporary("");
    }
  };
  try {
    for (const NamedBytes& file : files) staged.push_back(stage(file));
  } catch (...) {
    discard();
    throw;
  }
  {
    const exit_ledger::CriticalSection section;
    for (std::size_t i = 0; i < staged.size(); ++i) {
      if (::linkat(m_fd, staged[i].temporary.c_str(), m_fd, staged[i].name.c_str(), 0) == 0) continue;
      const int error = errno;
      for (std::size_t k = 0; k < i; ++k)  // the names linked so far are this write's own files
        ::unlinkat(m_fd, staged[k].name.c_str(), 0);
      for (Staged& s : staged) {
        ::unlinkat(m_fd, s.temporary.c_str(), 0);
        s.ledger->set_temporary("");
      }
      const std::string none =
          staged.size() > 1 ? "; none of its files was written" : "; nothing was written";
      if (error == EEXIST)
        throw RuntimeFailure(m_flag + " " + m_path + "/" + staged[i].name +
                             ": a file coalesce did not write appeared there during the run, and coalesce "
                             "never writes over one" +
                             none + " (move it away, or give a new folder)");
      fail(staged[i].name, error, none);
    }
    for (Staged& s : staged) {
      ::unlinkat(m_fd, s.temporary.c_str(), 0);
      s.ledger->set_temporary("");
      s.ledger->mark_written();
      m_written[s.name] = {s.device, s.inode};
    }
  }
  ::fsync(m_fd);  // the names reach the disk with the folder: best effort, the data is synced
}

void HeldFolder::replace_own(const NamedBytes& file) {
  const auto own = m_written.find(file.name);
  if (own == m_written.end()) return write_new({file});
  Staged staged = stage(file);
  {
    const exit_ledger::CriticalSection section;
    const bool ours = same_file(m_fd, file.name, own->second);
    if (!ours || ::renameat(m_fd, staged.temporary.c_str(), m_fd, file.name.c_str()) != 0) {
      const int error = errno;
      ::unlinkat(m_fd, staged.temporary.c_str(), 0);
      staged.ledger->set_temporary("");
      if (!ours)
        throw RuntimeFailure(m_flag + " " + m_path + "/" + file.name +
                             ": the file coalesce wrote there was replaced or removed during the run, and "
                             "coalesce never writes over a file it did not write (move it away, or give a "
                             "new folder)");
      fail(file.name, error, "; the previous " + file.name + " is untouched");
    }
    staged.ledger->set_temporary("");
    staged.ledger->mark_written();
    own->second = {staged.device, staged.inode};
  }
  ::fsync(m_fd);
}

bool HeldFolder::remove_own(const std::string& name) {
  const auto own = m_written.find(name);
  if (own == m_written.end() || !same_file(m_fd, name, own->second)) return false;
  if (::unlinkat(m_fd, name.c_str(), 0) != 0) return false;
  m_written.erase(own);
  ::fsync(m_fd);
  return true;
}

}  // namespace coalesce
