// What a child process can leave behind in the test process: open descriptors and unreaped children.
#pragma once

#include <dirent.h>
#include <sys/wait.h>

#include <cerrno>

namespace coalesce::testing {

// The descriptors open in this process (the directory's own one counted each time alike).
inline int open_fd_count() {
  DIR* dir = ::opendir("/proc/self/fd");
  if (!dir) return -1;
  int count = 0;
  while (::readdir(dir)) ++count;
  ::closedir(dir);
  return count;
}

// True when this process has no child at all, a zombie included.
inline bool no_child_left() {
  return ::waitpid(-1, nullptr, WNOHANG) < 0 && errno == ECHILD;
}

}  // namespace coalesce::testing
