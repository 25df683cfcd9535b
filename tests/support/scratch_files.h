// What the data-safety tests make and inspect on disk: random bytes for an old file, the names a run left
// beside its outputs (a temporary shows up there), and a small tmpfs that fills up (root only).
#pragma once

#include <sys/mount.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"
#include "tests/support/test_random.h"

namespace coalesce::testing {

inline std::string random_bytes(TestRng& rng, int size) {
  std::string bytes(static_cast<std::size_t>(size), '\0');
  for (char& c : bytes) c = static_cast<char>(rng.uniform_int(0, 255));
  return bytes;
}

// Names in `dir` other than `expected`: a temporary left behind shows up here.
inline std::vector<std::string> other_files(const TempDir& dir, const std::vector<std::string>& expected) {
  std::vector<std::string> others;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    const std::string name = entry.path().filename().string();
    if (std::find(expected.begin(), expected.end(), name) == expected.end()) others.push_back(name);
  }
  return others;
}

// A tmpfs of `kib` KiB at `path`, unmounted at the end: a real full disk (ENOSPC). Mounting needs root;
// mounted() says whether it worked, so a test can skip saying why.
class SmallDisk {
 public:
  SmallDisk(const std::string& path, int kib) : m_path(path) {
    std::filesystem::create_directory(path);
    const std::string options = "size=" + std::to_string(kib) + "k";
    m_mounted = ::mount("tmpfs", path.c_str(), "tmpfs", 0, options.c_str()) == 0;
  }
  ~SmallDisk() {
    if (m_mounted) ::umount2(m_path.c_str(), MNT_DETACH);
  }
  SmallDisk(const SmallDisk&) = delete;
  SmallDisk& operator=(const SmallDisk&) = delete;
  bool mounted() const { return m_mounted; }

 private:
  std::string m_path;
  bool m_mounted = false;
};

}  // namespace coalesce::testing
