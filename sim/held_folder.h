// A folder a run fills with files it names itself (a snapshot series), held open from its first file to
// its last: every file lands in the folder checked at the start even when its path is swapped for another
// during the run (each write is relative to the held descriptor), and no file there is ever replaced but
// one this folder wrote itself (the series' index). Temporaries are in the exit ledger like any output's.
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coalesce {

// A directory's identity, to tell whether a path still names the folder checked before the run.
struct FolderIdentity {
  dev_t device = 0;
  ino_t inode = 0;
};

// A file for the folder: its name there and its bytes.
struct NamedBytes {
  std::string name;
  std::vector<std::string_view> pieces;
};

class HeldFolder {
 public:
  // Opens `path` (an existing directory; `flag` and `path` name it in messages), which must be empty and,
  // when `expected` is given, the folder checked before the run. Throws RuntimeFailure naming the path.
  HeldFolder(std::string flag, std::string path, std::optional<FolderIdentity> expected);
  ~HeldFolder();
  HeldFolder(const HeldFolder&) = delete;
  HeldFolder& operator=(const HeldFolder&) = delete;

  // Writes each file under a name that must be new (linked, never renamed over one): all of them or none.
  // Throws RuntimeFailure naming the file that is in the way, or the write that failed.
  void write_new(const std::vector<NamedBytes>& files);
  // Writes `file`: new the first time, afterwards only over the file this folder wrote under that name.
  void replace_own(const NamedBytes& file);
  // Removes `name` if it is still the file this folder wrote there; whether it did.
  bool remove_own(const std::string& name);

  const std::string& path() const { return m_path; }

 private:
  struct Staged;
  Staged stage(const NamedBytes& file) const;
  [[noreturn]] void fail(const std::string& name, int error, const std::string& kept) const;

  std::string m_flag;
  std::string m_path;
  int m_fd = -1;
  std::map<std::string, std::pair<dev_t, ino_t>> m_written;  // name -> the file this folder put there last
};

// Whether the directory open as `fd` holds nothing; none when it cannot be read (errno says why).
std::optional<bool> directory_is_empty_at(int fd);

// The identity of the directory `path` names now (symlinks followed), or none.
std::optional<FolderIdentity> folder_identity(const std::string& path);

}  // namespace coalesce
